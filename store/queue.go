package store

import "strings"

// queuePrefix marks the corpora that hold what an MCP client (and later the
// gateway) left for review, one per client queue.
const queuePrefix = "mcp:"

// QueueCorpusID is the id of the corpus that holds queue's items.
func QueueCorpusID(queue string) string { return queuePrefix + queue }

// QueueName is the queue a corpus id holds, and whether it is a queue at all.
func QueueName(corpusID string) (string, bool) {
	return strings.CutPrefix(corpusID, queuePrefix)
}
