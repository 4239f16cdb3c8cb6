// InsightStore module
