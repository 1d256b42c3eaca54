package gateway

import (
	"context"
	"encoding/json"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ReviewGuard keeps unreviewed values out of actions: it sees every
// forwarded result (to learn what reflect flagged) and every call's
// arguments (to hold one that carries such a value while it is unsettled).
type ReviewGuard interface {
	Observe(ctx context.Context, who Identity, upstream, tool string, res *mcpsdk.CallToolResult)
	Check(ctx context.Context, who Identity, upstream, tool string, args json.RawMessage) (reason string, held bool, err error)
}
