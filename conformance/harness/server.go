package harness

import (
	"net"
	"sync"
)

// Server wraps kfake's listeners (kfake.ListenFn) so that the harness can tap and cut
// clients it cannot give a dialer: librdkafka opens its own sockets. Each accepted
// connection is bound, on its first request, to the Net of the process whose client ID it
// carries (the driver sets the client ID to the node's name); from then on it is tapped and
// cut exactly like a client-side connection of that Net. A connection of a process that is
// cut off from this broker is reset on its first request, which the client sees as a
// connection that failed at once.
type Server struct {
	mu    sync.Mutex
	nets  map[string]*Net  // client ID → the process's network
	addrs map[string]int32 // listen address → broker node ID
}

// NewServer returns a server with no process registered.
func NewServer() *Server { return &Server{nets: map[string]*Net{}, addrs: map[string]int32{}} }

// Listen is a kfake.ListenFn.
func (s *Server) Listen(network, addr string) (net.Listener, error) {
	ln, err := net.Listen(network, addr)
	if err != nil {
		return nil, err
	}
	return &listener{Listener: ln, s: s}, nil
}

// setAddrs records which broker listens where (listen address → node ID).
func (s *Server) setAddrs(addrs map[string]int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for a, id := range addrs {
		s.addrs[a] = id
	}
}

// register binds the connections that will carry client ID id to n.
func (s *Server) register(id string, n *Net) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nets[id] = n
}

// bind attaches c to the Net of the process with client ID id, if the harness runs one.
func (s *Server) bind(c *conn, id string) {
	c.bound = true
	s.mu.Lock()
	n := s.nets[id]
	broker, ok := s.addrs[c.LocalAddr().String()]
	s.mu.Unlock()
	if n == nil {
		return
	}
	if !ok {
		broker = -1
	}
	n.mu.Lock()
	c.n, c.broker = n, broker
	n.conns[c] = true
	n.mu.Unlock()
}

type listener struct {
	net.Listener
	s *Server
}

func (l *listener) Accept() (net.Conn, error) {
	raw, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &conn{Conn: raw, server: l.s, broker: -1, pending: map[int32]pending{}}, nil
}
