package kafkabroker

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// readyGroup is the group whose coordinator Start looks up: finding it makes the broker
// create __consumer_offsets and load its partition, which the first real group would wait for.
const readyGroup = "groupcheck-ready"

// waitServing returns once the broker at addr answers Metadata listing a broker and
// FindCoordinator with a coordinator, or when ctx ends or exited closes, with the last
// reason it was not serving yet.
func waitServing(ctx context.Context, addr string, exited <-chan struct{}) error {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.ClientID("kafkabroker-ready"),
		kgo.RetryTimeout(time.Second), kgo.RequestRetries(0))
	if err != nil {
		return err
	}
	defer cl.Close()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	last := fmt.Errorf("no answer yet")
	for {
		if last = serving(ctx, cl); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return last
		case <-exited:
			return last
		case <-tick.C:
		}
	}
}

func serving(ctx context.Context, cl *kgo.Client) error {
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	meta, err := kmsg.NewPtrMetadataRequest().RequestWith(rctx, cl)
	if err != nil {
		return fmt.Errorf("metadata: %v", err)
	}
	if len(meta.Brokers) == 0 {
		return fmt.Errorf("metadata lists no broker")
	}
	fc := kmsg.NewPtrFindCoordinatorRequest()
	fc.CoordinatorKey, fc.CoordinatorKeys = readyGroup, []string{readyGroup}
	resp, err := fc.RequestWith(rctx, cl)
	if err != nil {
		return fmt.Errorf("find coordinator: %v", err)
	}
	code := resp.ErrorCode
	if len(resp.Coordinators) > 0 {
		code = resp.Coordinators[0].ErrorCode
	}
	if err := kerr.ErrorForCode(code); err != nil {
		return fmt.Errorf("find coordinator: %v", err)
	}
	return nil
}
