package desktopmain

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// instanceSocket is the file, in the data folder, where the running
// desktop listens for a second start.
const instanceSocket = "desktop.sock"

// instanceDial bounds how long a second start waits for the first.
const instanceDial = 2 * time.Second

// instance is the desktop's claim to be the only one running on a data
// folder: a second start finds it, asks it to show its window and exits,
// rather than starting a second set of servers on a taken address.
type instance struct {
	ln   net.Listener // nil when unguarded
	path string
	wg   sync.WaitGroup
	// unguarded is why the socket could not be made (a path too long for
	// a Unix socket, a Windows without AF_UNIX): this desktop runs anyway,
	// but a second start will not find it.
	unguarded error
}

// errRunning says another desktop holds the data folder; it was asked to
// show its window.
var errRunning = errors.New("toolhub-desktop is already running: its window was brought to the front")

// claimInstance takes the data folder dir for this process, or, when a
// desktop already runs there, asks it to show its window and returns
// errRunning. A socket left by a desktop that crashed is taken over. When
// no socket can be made there the claim is unguarded, not refused: the
// window matters more than noticing a second start.
func claimInstance(dir string) (*instance, error) {
	path := filepath.Join(dir, instanceSocket)
	if askToShow(path) {
		return nil, errRunning
	}
	_ = os.Remove(path) // nobody answers on it: left by a crash
	ln, err := net.Listen("unix", path)
	if err != nil {
		return &instance{path: path, unguarded: fmt.Errorf("listen on %s: %w", path, err)}, nil
	}
	return &instance{ln: ln, path: path}, nil
}

// askToShow tells the desktop listening at path to show its window, and
// reports whether one answered.
func askToShow(path string) bool {
	conn, err := net.DialTimeout("unix", path, instanceDial)
	if err != nil {
		return false
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(instanceDial))
	if _, err := conn.Write([]byte("show\n")); err != nil {
		return false
	}
	reply, err := bufio.NewReader(conn).ReadString('\n')
	return err == nil && reply == "ok\n"
}

// serve calls show for every later start, until Close.
func (i *instance) serve(show func()) {
	if i.ln == nil {
		return
	}
	i.wg.Add(1)
	go func() {
		defer i.wg.Done()
		for {
			conn, err := i.ln.Accept()
			if err != nil {
				return // closed
			}
			i.answer(conn, show)
		}
	}()
}

func (i *instance) answer(conn net.Conn, show func()) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(instanceDial))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || line != "show\n" {
		return
	}
	show()
	_, _ = conn.Write([]byte("ok\n"))
}

// Close gives up the claim and removes the socket.
func (i *instance) Close() {
	if i.ln == nil {
		return
	}
	_ = i.ln.Close()
	i.wg.Wait()
	_ = os.Remove(i.path)
}
