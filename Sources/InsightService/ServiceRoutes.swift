import HTTPServer
import InsightCore

/// The whole v1 API over its dependencies: builds the router the HTTP server runs.
public struct ServiceRoutes: Sendable {
    public struct Dependencies: Sendable {
        public var authenticator: Authenticator
        public var evaluator: Evaluator
        public var models: any ModelProvider
        public var authorizations: AuthorizationRegistry
        public var hasher: SubjectHasher
        public var signer: PayloadSigner
        public var readiness: Readiness
        public var consumption: ConsumptionIntake
        public var labels: LabelIntake
        public var admission: AdmissionControl
        /// Nil leaves `GET /v1/metrics/labels` unregistered.
        public var metrics: LabelMetrics?

        public init(
            authenticator: Authenticator, evaluator: Evaluator, models: any ModelProvider, authorizations: AuthorizationRegistry,
            hasher: SubjectHasher, signer: PayloadSigner, readiness: Readiness, consumption: ConsumptionIntake, labels: LabelIntake,
            admission: AdmissionControl,
            metrics: LabelMetrics? = nil
        ) {
            self.admission = admission
            self.authenticator = authenticator
            self.evaluator = evaluator
            self.models = models
            self.authorizations = authorizations
            self.hasher = hasher
            self.signer = signer
            self.readiness = readiness
            self.consumption = consumption
            self.labels = labels
            self.metrics = metrics
        }
    }

    let dependencies: Dependencies

    public init(_ dependencies: Dependencies) { self.dependencies = dependencies }

    public func register(in router: inout Router) {
        let access = RouteAccess(authenticator: dependencies.authenticator)
        EvaluationRoutes(
            access: access, evaluator: dependencies.evaluator, signer: dependencies.signer, readiness: dependencies.readiness,
            admission: dependencies.admission
        ).register(in: &router)
        ComplianceRoutes(access: access, admission: dependencies.admission).register(in: &router)
        AuthorizationRoutes(access: access, registry: dependencies.authorizations, hasher: dependencies.hasher).register(in: &router)
        CatalogueRoutes(access: access, models: dependencies.models, signer: dependencies.signer).register(in: &router)
        ConsumptionRoutes(access: access, intake: dependencies.consumption, admission: dependencies.admission, readiness: dependencies.readiness).register(in: &router)
        LabelRoutes(
            access: access, intake: dependencies.labels, hasher: dependencies.hasher, readiness: dependencies.readiness).register(in: &router)
        ContractRoutes().register(in: &router)
        if let metrics = dependencies.metrics { MetricsRoutes(access: access, metrics: metrics).register(in: &router) }
    }
}
