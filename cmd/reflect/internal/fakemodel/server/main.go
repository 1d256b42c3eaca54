// Command server runs fakemodel in a process of its own, so a benchmark of
// reflect does not also measure the server it talks to. It listens on two
// loopback ports and prints "model ADDR" and "control ADDR" on stdout; it
// exits when stdin closes (its parent ended).
//
//	server -delay 50ms
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/reflect-mcp/reflect/cmd/reflect/internal/fakemodel"
)

func main() {
	delay := flag.Duration("delay", 0, "how long each reply waits")
	flag.Parse()
	m := &fakemodel.Model{Delay: *delay}
	model, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	control, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("model %s\ncontrol %s\n", model.Addr(), control.Addr())
	srv := &http.Server{Handler: m, ConnState: m.ConnState, ConnContext: m.ConnContext}
	go func() { log.Fatal(srv.Serve(m.Listener(model))) }()
	go func() { log.Fatal((&http.Server{Handler: m.Control()}).Serve(control)) }()
	_, _ = io.Copy(io.Discard, os.Stdin)
}
