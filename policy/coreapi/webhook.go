package coreapi

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/reflect-mcp/reflect/policy"
)

// Webhook posts engine events to REEFLEX_WEBHOOK_URL as the reference
// does: JSON, fire and forget, a 3 s timeout, no retry, dropped when the
// queue (REEFLEX_WEBHOOK_QUEUE_SIZE, default 1000) is full. A decision never
// waits for it.
type Webhook struct {
	url     string
	q       chan []byte
	client  *http.Client
	log     *slog.Logger
	wg      sync.WaitGroup
	dropped atomic.Int64
	mu      sync.RWMutex
	closed  bool
}

// NewWebhook starts the sender.
func NewWebhook(url string, queue int, log *slog.Logger) *Webhook {
	if queue <= 0 {
		queue = 1000
	}
	if log == nil {
		log = slog.Default()
	}
	w := &Webhook{url: url, q: make(chan []byte, queue), client: &http.Client{Timeout: 3 * time.Second}, log: log}
	w.wg.Add(1)
	go w.run()
	return w
}

// Send queues ev (policy.Options.OnEvent).
func (w *Webhook) Send(ev policy.Event) {
	w.mu.RLock()
	defer w.mu.RUnlock()
	if w.closed {
		return
	}
	select {
	case w.q <- ev.AppendJSON(nil):
	default:
		w.dropped.Add(1)
		w.log.Warn("webhook queue full: event dropped", "event", ev.Name)
	}
}

// Dropped is how many events a full queue discarded.
func (w *Webhook) Dropped() int64 { return w.dropped.Load() }

func (w *Webhook) run() {
	defer w.wg.Done()
	for body := range w.q {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		req, err := http.NewRequestWithContext(ctx, "POST", w.url, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
			var resp *http.Response
			if resp, err = w.client.Do(req); err == nil {
				resp.Body.Close()
			}
		}
		cancel()
		if err != nil {
			w.log.Warn("webhook post failed", "err", err)
		}
	}
}

// Close sends what is queued (each at most 3 s) and stops.
func (w *Webhook) Close() {
	w.mu.Lock()
	if !w.closed {
		w.closed = true
		close(w.q)
	}
	w.mu.Unlock()
	w.wg.Wait()
}
