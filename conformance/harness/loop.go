package harness

import (
	"context"
	"fmt"
)

// Loop is a driver whose client runs one group loop on its own goroutine (Sarama's Consume,
// kafka-go's Next): Close ends the group, Stop cancels the loop's context, Done closes when
// the loop has returned. Its Leave and Kill are the same for every such client.
type Loop struct {
	Close func() error
	Stop  context.CancelFunc
	Done  <-chan struct{}
}

// Leave closes the group (the client's own revoke, commit and LeaveGroup) within ctx, then
// waits for the loop; on ctx's end it only stops the loop and says why.
func (l Loop) Leave(ctx context.Context) error {
	errc := make(chan error, 1)
	go func() { errc <- l.Close() }()
	select {
	case err := <-errc:
		l.Stop()
		<-l.Done
		return err
	case <-ctx.Done():
		l.Stop()
		return fmt.Errorf("close: %v", ctx.Err())
	}
}

// Kill closes the group after the network went down (the leave cannot reach the broker).
func (l Loop) Kill() {
	l.Stop()
	l.Close()
	<-l.Done
}
