// InsightService module
