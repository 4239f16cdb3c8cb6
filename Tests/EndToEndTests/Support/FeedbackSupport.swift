import Foundation
import InsightCore
import InsightStore

/// Evaluations to report on and label, and direct looks into the database the service wrote.
extension LiveService {
    struct Evaluated {
        var evaluationID: String
        var insightIDs: [String]
    }

    func evaluate(key: String, account: String = "acct-feedback", device: String = "dev-1") throws -> Evaluated {
        let response = try client().request("POST", "/v1/evaluations", headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
        ], body: Requests.payment(account: account, device: device))
        guard response.status == 200,
              let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
              let evaluationID = object["evaluationID"] as? String,
              let insights = object["insights"] as? [[String: Any]]
        else { throw FeedbackTestError.evaluationFailed(response.status) }
        return Evaluated(evaluationID: evaluationID, insightIDs: insights.compactMap { $0["insightID"] as? String })
    }

    func post(_ path: String, key: String, body: String, headers: [(String, String)] = []) throws -> SocketClient.Response {
        try client().request("POST", path, headers: [
            ("Authorization", "Bearer \(key)"), ("Content-Type", "application/json"),
        ] + headers, body: Array(body.utf8))
    }

    /// Runs a one-integer query on a connection of its own, as an operator would after the answer arrived.
    func count(_ sql: String) throws -> Int {
        let connection = try SQLiteConnection(path: dataDirectory + "/" + SQLiteStore.fileName, mode: .readOnly)
        let statement = try connection.statement(sql)
        _ = try statement.step()
        let value = statement.int(0)
        return value
    }

    func executeInDatabase(_ sql: String) throws {
        try SQLiteConnection(path: dataDirectory + "/" + SQLiteStore.fileName).execute(sql)
    }
}

enum FeedbackTestError: Error { case evaluationFailed(Int) }

func jsonObject(_ response: SocketClient.Response) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else { throw FeedbackTestError.evaluationFailed(response.status) }
    return object
}

func errorPointers(_ response: SocketClient.Response) throws -> [String] {
    ((try jsonObject(response)["errors"] as? [[String: String]]) ?? []).compactMap { $0["pointer"] }
}
