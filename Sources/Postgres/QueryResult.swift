/// The rows of an answer, each column as its text form (nil for NULL), and the number of rows a command touched.
public struct QueryResult: Sendable, Equatable {
    /// Column names, in order.
    public var columns: [String]
    /// Rows, each with one value per column.
    public var rows: [[String?]]
    /// Rows inserted, updated or deleted (`PQcmdTuples`), 0 for a query.
    public var affectedRows: Int

    /// A result.
    public init(columns: [String] = [], rows: [[String?]] = [], affectedRows: Int = 0) {
        self.columns = columns
        self.rows = rows
        self.affectedRows = affectedRows
    }

    /// The first row's value in `column`, for one-value queries.
    public func value(_ column: String, row: Int = 0) -> String? {
        guard let index = columns.firstIndex(of: column), row < rows.count else { return nil }
        return rows[row][index]
    }
}
