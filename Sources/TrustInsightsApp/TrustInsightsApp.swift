// TrustInsightsApp module
