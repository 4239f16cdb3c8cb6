// InsightCore module
