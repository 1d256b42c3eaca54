package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxLineBytes bounds one stdio message. A longer line is answered with an
// invalid-request error and skipped, never buffered whole.
const MaxLineBytes = 16 << 20

// lineTransport is reflect's stdio transport: newline-delimited JSON-RPC, one
// message per line. The SDK's own stdio transport closes the session on the
// first line that does not decode, so one stray byte from a careless client
// would lose every call in flight and exit the server; here such a line gets
// a JSON-RPC error (-32700 or -32600, with the request's id when it has one)
// and the server reads on. It also keeps two protocol promises the SDK's
// session does not: no error response carries code 0, and a request the
// client cancelled gets no response.
type lineTransport struct {
	r   io.ReadCloser
	w   io.Writer
	max int
	log *slog.Logger
}

// Connect implements mcpsdk.Transport.
func (t *lineTransport) Connect(context.Context) (mcpsdk.Connection, error) {
	max := t.max
	if max <= 0 {
		max = MaxLineBytes
	}
	c := &lineConn{
		r: t.r, w: t.w, log: t.log,
		in:       make(chan jsonrpc.Message),
		readErr:  make(chan error, 1),
		done:     make(chan struct{}),
		inFlight: map[jsonrpc.ID]bool{},
	}
	go c.readLoop(max)
	return c, nil
}

type lineConn struct {
	r   io.ReadCloser
	w   io.Writer
	log *slog.Logger
	wmu sync.Mutex

	in      chan jsonrpc.Message
	readErr chan error
	done    chan struct{}
	once    sync.Once

	// inFlight holds the ids of the client's calls not answered yet; true
	// once the client cancelled the call, so its answer is dropped.
	fmu      sync.Mutex
	inFlight map[jsonrpc.ID]bool
}

func (c *lineConn) SessionID() string { return "" }

// Read implements mcpsdk.Connection.
func (c *lineConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, io.EOF
	case m := <-c.in:
		return m, nil
	case err := <-c.readErr:
		return nil, err
	}
}

// Write implements mcpsdk.Connection.
func (c *lineConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if resp, ok := msg.(*jsonrpc.Response); ok {
		c.fmu.Lock()
		cancelled, tracked := c.inFlight[resp.ID]
		delete(c.inFlight, resp.ID)
		c.fmu.Unlock()
		if tracked && cancelled {
			return nil // the client said it will not read it
		}
		if resp.Error != nil {
			r := *resp
			r.Error = codedError(resp.Error)
			msg = &r
		}
	}
	b, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("mcp stdio: %w", err)
	}
	return c.writeLine(b)
}

func (c *lineConn) writeLine(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := c.w.Write(append(b, '\n'))
	return err
}

// Close implements mcpsdk.Connection. It unblocks Read at once; the reading
// goroutine ends when the input does (stdin cannot be interrupted portably).
func (c *lineConn) Close() error {
	var err error
	c.once.Do(func() {
		close(c.done)
		err = c.r.Close()
	})
	return err
}

func (c *lineConn) readLoop(max int) {
	br := bufio.NewReaderSize(c.r, 64<<10)
	for {
		line, tooLong, err := readLine(br, max)
		if tooLong {
			c.reject(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", max))
		} else if len(line) > 0 {
			c.handleLine(line)
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				err = fmt.Errorf("mcp stdio: read: %w", err)
			}
			select {
			case c.readErr <- err:
			case <-c.done:
			}
			return
		}
	}
}

// readLine reads one line without its end of line. A line over max bytes is
// consumed and dropped (tooLong) so that memory stays bounded.
func readLine(br *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		frag, e := br.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > max+2 { // +2: the \r\n is not the message
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		if errors.Is(e, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, e
	}
}

// handleLine turns one line into the message it carries, or into an error
// answer when it carries anything else.
func (c *lineConn) handleLine(line []byte) {
	msg, errID, code, reason := parseLine(line)
	if reason != "" {
		if len(errID) == 0 {
			c.reject(nil, code, reason)
		}
		for _, id := range errID {
			c.reject(id, code, reason)
		}
		if c.log != nil {
			c.log.Warn("stdio: answered a line that is not a JSON-RPC message", "code", code, "reason", reason,
				"line", clip(string(line), 120), "bytes", len(line))
		}
		return
	}
	if msg == nil {
		return // a blank line
	}
	if req, ok := msg.(*jsonrpc.Request); ok {
		c.track(req)
	}
	select {
	case c.in <- msg:
	case <-c.done:
	}
}

// track records calls in flight and marks those the client cancels.
func (c *lineConn) track(req *jsonrpc.Request) {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	if req.IsCall() {
		c.inFlight[req.ID] = false
		return
	}
	if req.Method != "notifications/cancelled" {
		return
	}
	var p struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(req.Params, &p) != nil {
		return
	}
	if id, err := jsonrpc.MakeID(p.RequestID); err == nil {
		if _, ok := c.inFlight[id]; ok {
			c.inFlight[id] = true
		}
	}
}

// reject writes an error response. id is the request's id as sent (nil: the
// JSON null a message without a readable id gets).
func (c *lineConn) reject(id json.RawMessage, code int64, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(wireError{JSONRPC: "2.0", ID: id, Error: wireErrorBody{Code: code, Message: msg}})
	if err == nil {
		err = c.writeLine(b)
	}
	if err != nil && c.log != nil {
		c.log.Warn("stdio: could not answer a malformed line", "error", err.Error())
	}
}

type wireError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   wireErrorBody   `json:"error"`
}

type wireErrorBody struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// parseLine decodes one line. A leading byte order mark is ignored (RFC 8259
// lets a parser do so). On failure it returns the JSON-RPC error code, the
// reason, and the ids of every request on the line so that each gets its
// answer rather than waiting for ever.
func parseLine(line []byte) (msg jsonrpc.Message, ids []json.RawMessage, code int64, reason string) {
	line = bytes.TrimSpace(bytes.TrimPrefix(line, utf8BOM))
	if len(line) == 0 {
		return nil, nil, 0, ""
	}
	values, err := jsonValues(line)
	if err != nil {
		return nil, nil, jsonrpc.CodeParseError, "parse error: the line is not JSON: " + clip(err.Error(), 200)
	}
	if len(values) > 1 {
		for _, v := range values {
			ids = append(ids, requestIDs(v)...)
		}
		return nil, ids, jsonrpc.CodeInvalidRequest,
			fmt.Sprintf("invalid request: %d JSON values on one line; send one message per line", len(values))
	}
	v := values[0]
	switch v[0] {
	case '[':
		return nil, requestIDs(v), jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not supported; send one message per line"
	case '{':
	default:
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: a JSON-RPC message is a JSON object"
	}
	m, err := jsonrpc.DecodeMessage(v)
	if err != nil {
		return nil, requestIDs(v), jsonrpc.CodeInvalidRequest, "invalid request: " + clip(err.Error(), 200)
	}
	return m, nil, 0, ""
}

// jsonValues splits a line into the JSON values it holds.
func jsonValues(line []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	var out []json.RawMessage
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// requestIDs returns the valid ids (a string or a number) of the request
// objects in v, an object or an array of them.
func requestIDs(v json.RawMessage) []json.RawMessage {
	var objs []json.RawMessage
	if len(v) > 0 && v[0] == '[' {
		if json.Unmarshal(v, &objs) != nil {
			return nil
		}
	} else {
		objs = []json.RawMessage{v}
	}
	var ids []json.RawMessage
	for _, o := range objs {
		var m struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(o, &m) != nil || len(m.ID) == 0 {
			continue
		}
		var id any
		if json.Unmarshal(m.ID, &id) != nil || id == nil {
			continue
		}
		if _, err := jsonrpc.MakeID(id); err == nil {
			ids = append(ids, m.ID)
		}
	}
	return ids
}

// codedError gives an error response a JSON-RPC code. The SDK answers some
// protocol mistakes (initialize twice, a call before initialize) with a plain
// Go error, which goes on the wire as code 0: not a JSON-RPC code, and
// clients that switch on the code cannot tell it from success paths.
func codedError(err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && we.Code != 0 {
		if we == err {
			return err
		}
		return &jsonrpc.Error{Code: we.Code, Message: err.Error(), Data: we.Data}
	}
	return &jsonrpc.Error{Code: protocolErrorCode(err.Error()), Message: err.Error()}
}

// protocolErrorCode picks the code of an uncoded SDK error from its text: the
// SDK's session-state errors are the client's mistake (invalid request);
// anything else is ours.
func protocolErrorCode(msg string) int64 {
	for _, s := range []string{"duplicate", "initializ", "invalid", "unexpected", "missing"} {
		if bytes.Contains([]byte(msg), []byte(s)) {
			return jsonrpc.CodeInvalidRequest
		}
	}
	return jsonrpc.CodeInternalError
}
