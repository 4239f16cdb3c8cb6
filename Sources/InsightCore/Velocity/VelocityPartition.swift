/// Whose subjects a velocity entry belongs to. Subject keys of different tenants or environments never collide
/// (each is an HMAC under the tenant's key over the environment), but they share the tracker's memory bound; the
/// partition is what lets a full shard choose its victims fairly instead of by age alone.
public struct VelocityPartition: Hashable, Sendable {
    public var tenant: TenantID
    public var environment: DeploymentEnvironment

    public init(tenant: TenantID, environment: DeploymentEnvironment) {
        self.tenant = tenant
        self.environment = environment
    }
}
