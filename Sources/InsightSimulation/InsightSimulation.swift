// InsightSimulation module
