package providers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// replyCases are replies as servers write them and the shapes
// decodeCompletion must leave to encoding/json.
var replyCases = []string{
	openAIOK,
	// OpenAI's own layout: indented, with the fields no caller reads.
	`{
  "id": "chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT",
  "object": "chat.completion",
  "created": 1741569952,
  "model": "gpt-4.1-2025-04-14",
  "choices": [
    {
      "index": 0,
      "message": {
        "role": "assistant",
        "content": "{\"total\": 12.5, \"note\": \"caf\u00e9 \\\"x\\\"\"}",
        "refusal": null,
        "annotations": []
      },
      "logprobs": null,
      "finish_reason": "stop"
    }
  ],
  "usage": {
    "prompt_tokens": 19,
    "completion_tokens": 10,
    "total_tokens": 29,
    "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
    "completion_tokens_details": {"reasoning_tokens": 0, "accepted_prediction_tokens": 0}
  },
  "service_tier": "default",
  "system_fingerprint": null
}`,
	`{"model":"m","choices":[{"message":{"content":"a"},"finish_reason":"stop"},{"message":{"content":"b"},"finish_reason":"length"}],"usage":{"prompt_tokens":120.0,"completion_tokens":4e1}}`,
	`{"model":"m","choices":[],"usage":{}}`,
	`{"model":"m","choices":null,"usage":null}`,
	`{"model":null,"choices":[null,{"message":null,"finish_reason":null}]}`,
	`{"choices":[{"message":{"content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`,
	`{}`,
	`  {"model":"m"}  ` + "\n",
	`{"x":[1,2,{"y":[true,false,null,-0.5e+3,"s\u00e9\n"]}],"model":"m"}`,
	// Left to encoding/json: its answers are what Complete reports.
	`null`,
	`{"Model":"upper","choices":[{"Message":{"Content":"folded"}}],"USAGE":{"Prompt_Tokens":3}}`,
	`{"model":"a","model":"b"}`,
	`{"choices":[{"message":{"content":"a"}}],"choices":[{"message":{"refusal":"r"}}]}`,
	`{"choices":[{"message":{"content":"a","content":"b"}}]}`,
	`{"model":5}`,
	`{"choices":"none"}`,
	`{"usage":{"prompt_tokens":"12"}}`,
	`{"usage":{"prompt_tokens":1e999}}`,
	`{"model":"bad \xff utf-8"}`,
	`{"model\u212a":"kelvin sign","choice\u017f":[]}`,
	`{"model":"m"} trailing`,
	`{"model":"m"}{"model":"n"}`,
	`{"model":"m",}`,
	`{"model":"m"`,
	`{"x":01}`,
	`{"x":"\q"}`,
	`{"x":"ctl ` + "\x01" + `"}`,
	`{"x":tru}`,
	`{"x":-}`,
	`{"x":1.}`,
	`{"x":1e}`,
	`{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`<html>gateway says hi</html>`,
	``,
}

// decodeCompletion answers exactly as encoding/json's Decoder did on every
// reply: the same record and the same error.
func TestDecodeCompletionIsEncodingJSON(t *testing.T) {
	for _, raw := range replyCases {
		sameAsEncodingJSON(t, []byte(raw))
	}
}

// The replies a server usually writes are read without encoding/json.
func TestDecodeCompletionReadsPlainRepliesDirectly(t *testing.T) {
	for _, raw := range replyCases[:10] {
		r := replyReader{b: []byte(raw)}
		if _, ok := r.completion(); !ok {
			t.Errorf("left to encoding/json: %s", raw)
		}
	}
	for _, raw := range replyCases[10:] {
		r := replyReader{b: []byte(raw)}
		if _, ok := r.completion(); ok {
			t.Errorf("read directly, but encoding/json may answer otherwise: %s", raw)
		}
	}
}

func FuzzDecodeCompletion(f *testing.F) {
	for _, raw := range replyCases {
		f.Add([]byte(raw))
	}
	f.Fuzz(func(t *testing.T, raw []byte) { sameAsEncodingJSON(t, raw) })
}

func sameAsEncodingJSON(t *testing.T, raw []byte) {
	t.Helper()
	var want chatCompletion
	wantErr := json.NewDecoder(bytes.NewReader(raw)).Decode(&want)
	got, err := decodeCompletion(raw)
	if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
		t.Errorf("%q:\n got %#v, %v\nwant %#v, %v", raw, got, err, want, wantErr)
	}
}

// BenchmarkDecodeCompletion decodes the fake model's generator reply.
func BenchmarkDecodeCompletion(b *testing.B) {
	raw := []byte(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o-mini","choices":[{"index":0,"message":{"role":"assistant","content":"{\"vendor_name\":\"Acme Ltd\",\"invoice_number\":\"INV-1\",\"invoice_date\":null,\"subtotal\":null,\"tax\":null,\"total\":12.5,\"currency\":\"USD\"}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":40,"total_tokens":160}}`)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decodeCompletion(raw); err != nil {
			b.Fatal(err)
		}
	}
}
