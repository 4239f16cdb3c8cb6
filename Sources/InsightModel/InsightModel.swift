// InsightModel module
