// InsightCrypto module
