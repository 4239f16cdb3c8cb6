// InsightTraining module
