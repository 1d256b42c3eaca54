//go:build unix

package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// fileLock takes a flock on the store's side file path+".lock" before
// bbolt's own lock. bbolt polls its flock every 50 ms, so under load a
// writer that arrives late often wins and one that arrived first can wait
// for ever (issue 10: p99 10 s, "store is busy"); a blocking flock queues
// in the kernel, so waiters are served roughly in arrival order and
// none polls. It returns a release func, or ErrLocked once wait passes.
// A store on a read-only directory gets no side lock and relies on
// bbolt's.
func fileLock(path string, exclusive bool, wait time.Duration) (func(), error) {
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
			return func() {}, nil
		}
		return nil, fmt.Errorf("lock file: %w", err)
	}
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	fd := int(f.Fd())
	if syscall.Flock(fd, how|syscall.LOCK_NB) == nil {
		return func() { _ = f.Close() }, nil
	}
	got := make(chan error, 1)
	go func() { got <- flockRetry(fd, how) }()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-got:
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("lock file: %w", err)
		}
		return func() { _ = f.Close() }, nil
	case <-t.C:
		// The blocked flock cannot be cancelled: whenever it is granted,
		// give it straight back.
		go func() {
			<-got
			_ = f.Close()
		}()
		return nil, ErrLocked
	}
}

func flockRetry(fd, how int) error {
	for {
		err := syscall.Flock(fd, how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// lockFile takes a blocking exclusive flock on f (the outbox, held only for
// an append or a drain).
func lockFile(f *os.File) error { return flockRetry(int(f.Fd()), syscall.LOCK_EX) }
