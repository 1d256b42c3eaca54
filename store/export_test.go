package store

// The file-layout internals the external tests (package store_test, which
// can use storetest) inspect or damage files with.
var (
	BktMeta      = bktMeta
	BktCorpora   = bktCorpora
	BktDocs      = bktDocs
	BktSummaries = bktSummaries
	BktResults   = bktResults
	BktLatest    = bktLatest
	BktDecisions = bktDecisions
	BktAudit     = bktAudit
	BktTraces    = bktTraces
	KeyVersion   = keyVersion
	U64          = u64
)
