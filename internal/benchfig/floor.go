package benchfig

import (
	"os"
	"slices"
	"time"
)

// SyncProbe measures the disk's floor for a durable answer: appends of 4 KB
// to a file, each made durable (fdatasync where the system has it) before
// the next. No write that is on disk before its caller is answered returns
// faster on that disk. A benchmark takes a sample between its own calls, so
// the floor is measured under the same load as the figure beside it (on a
// shared machine the disk's p50 moves by 10x within minutes).
type SyncProbe struct {
	f     *os.File
	block []byte
	lat   []time.Duration
}

// NewSyncProbe makes the probe's file in dir, beside the files it is
// compared with; Close removes it.
func NewSyncProbe(dir string) (*SyncProbe, error) {
	f, err := os.CreateTemp(dir, "syncprobe-*")
	if err != nil {
		return nil, err
	}
	block := make([]byte, 4096)
	for i := range block {
		block[i] = 'x'
	}
	return &SyncProbe{f: f, block: block}, nil
}

// Sample appends one block and waits for it to be durable.
func (p *SyncProbe) Sample() error {
	t0 := time.Now()
	if _, err := p.f.Write(p.block); err != nil {
		return err
	}
	if err := datasync(p.f); err != nil {
		return err
	}
	p.lat = append(p.lat, time.Since(t0))
	return nil
}

// P50 is the median sample (0 before any).
func (p *SyncProbe) P50() time.Duration {
	if len(p.lat) == 0 {
		return 0
	}
	l := slices.Clone(p.lat)
	slices.Sort(l)
	return l[len(l)/2]
}

// Close removes the probe's file.
func (p *SyncProbe) Close() error {
	err := p.f.Close()
	if rerr := os.Remove(p.f.Name()); err == nil {
		err = rerr
	}
	return err
}
