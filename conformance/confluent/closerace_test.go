package confluent

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// closeRaceEnv makes the test binary run closeRaceChild instead of the test.
const closeRaceEnv = "GROUPCHECK_CONFLUENT_CLOSE_RACE"

// TestCloseWithAssignPending is the minimal reproduction of librdkafka's KIP-848 close bug
// (README, "KIP-848 leave before revoke on close"): a closes while the "cooperative assign
// after revoke" that follows its revoke callback is queued for it and not yet served. Close's
// terminate queues the revoke of everything behind that assign event; a's answer to the
// assign (IncrementalAssign) is taken as the full unassign because the group is terminating
// (rdkafka_cgrp.c rd_kafka_cgrp_handle_assign_op, "treating assign as unassign"), so
// librdkafka sends the leave heartbeat (epoch -1) before a's revoke callback has run. The
// callback's commit then is refused (UNKNOWN_MEMBER_ID) or, once the group has terminated,
// never returns (rd_kafka_cgrp_op_serve drops ops once rkcg_terminated is set), and so may the
// close. The consumer runs in a child process, since a hung librdkafka call cannot be
// abandoned; the child is killed after childLimit.
func TestCloseWithAssignPending(t *testing.T) {
	if os.Getenv(closeRaceEnv) != "" {
		closeRaceChild()
		return
	}
	if testing.Short() {
		t.Skip("long form only: a child consumer that hangs for childLimit")
	}
	const childLimit = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), childLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCloseWithAssignPending$")
	cmd.Env = append(os.Environ(), closeRaceEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var steps []string
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		if s, ok := strings.CutPrefix(sc.Text(), "step "); ok {
			steps = append(steps, s)
		}
	}
	t.Logf("child (%v): %s", err, strings.Join(steps, "; "))
	at := func(s string) int {
		for i, x := range steps {
			if x == s {
				return i
			}
		}
		return -1
	}
	if at("close") < 0 || at("revoke-begin") < 0 {
		t.Fatalf("the child did not reach a close with a revoke: %s", out.String())
	}
	if at("leave") < 0 {
		t.Errorf("want librdkafka's leave heartbeat sent while the closing revoke callback runs; got steps %q", steps)
	}
	if at("commit-end <nil>") >= 0 {
		t.Errorf("want the closing revoke callback's commit refused or hung, since a has left; got steps %q", steps)
	}
}

// closeRaceChild runs the reproduction on an in-process kfake and prints its steps ("step
// X"): a joins alone, b joins (a's revoke), a closes at once after its revoke callback
// returns.
func closeRaceChild() {
	say := func(s string) { fmt.Println("step " + s) }
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "t"),
		kfake.BrokerConfigs(map[string]string{"group.consumer.heartbeat.interval.ms": "100"}))
	if err != nil {
		say("kfake-error " + err.Error())
		return
	}
	var closing, leaving, queuing sync.Once
	closed, left, queued := make(chan struct{}), make(chan struct{}), make(chan struct{})
	c.ControlKey(int16(kmsg.ConsumerGroupHeartbeat), func(req kmsg.Request) (kmsg.Response, error, bool) {
		c.KeepControl()
		if r := req.(*kmsg.ConsumerGroupHeartbeatRequest); r.MemberEpoch == -1 {
			leaving.Do(func() { close(left) })
		}
		return nil, nil, false
	})
	consumer := func(name string, cb kafka.RebalanceCb) *kafka.Consumer {
		k, err := kafka.NewConsumer(&kafka.ConfigMap{"bootstrap.servers": c.ListenAddrs()[0], "client.id": name,
			"group.id": "g", "group.protocol": "consumer", "group.remote.assignor": "uniform",
			"enable.auto.commit": false, "go.logs.channel.enable": true, "debug": "cgrp"})
		if err != nil {
			say("consumer-error " + err.Error())
			os.Exit(0)
		}
		go func() {
			for l := range k.Logs() {
				// librdkafka queues the assign that follows a cooperative revoke for the
				// application (rd_kafka_cgrp_consumer_incr_unassign_done).
				if name == "a" && strings.Contains(l.Message, "cooperative assign after revoke") {
					queuing.Do(func() { close(queued) })
				}
			}
		}()
		if err := k.SubscribeTopics([]string{"t"}, cb); err != nil {
			say("subscribe-error " + err.Error())
			os.Exit(0)
		}
		return k
	}
	var owned, revoked int
	a := consumer("a", func(k *kafka.Consumer, ev kafka.Event) error {
		switch e := ev.(type) {
		case kafka.AssignedPartitions:
			owned += len(e.Partitions)
			return k.IncrementalAssign(e.Partitions)
		case kafka.RevokedPartitions:
			select {
			case <-closed:
				say("revoke-begin")
				// A client that revokes before it leaves sends no leave while the application
				// is still in this callback; librdkafka here has sent it already.
				select {
				case <-left:
					say("leave")
				case <-time.After(2 * time.Second):
					say("no-leave")
				}
				t := "t"
				_, err := k.CommitOffsets([]kafka.TopicPartition{{Topic: &t, Partition: e.Partitions[0].Partition, Offset: 0}})
				say(fmt.Sprintf("commit-end %v", err))
			default:
				revoked++
			}
			owned -= len(e.Partitions)
			return k.IncrementalUnassign(e.Partitions)
		}
		return nil
	})
	pollUntil := func(k *kafka.Consumer, what string, done func() bool) {
		for deadline := time.Now().Add(10 * time.Second); !done(); {
			if time.Now().After(deadline) {
				say("timeout " + what)
				os.Exit(0)
			}
			k.Poll(50)
		}
	}
	pollUntil(a, "a's assignment", func() bool { return owned == 2 })
	say("a-owns-2")
	b := consumer("b", func(k *kafka.Consumer, ev kafka.Event) error { return nil })
	go func() {
		for {
			b.Poll(50)
		}
	}()
	pollUntil(a, "a's revoke", func() bool { return revoked > 0 })
	// Close with the assign after the revoke queued and not yet served.
	select {
	case <-queued:
	case <-time.After(10 * time.Second):
		say("timeout the assign after the revoke")
		os.Exit(0)
	}
	closing.Do(func() { close(closed) })
	say("close")
	a.Close()
	say("closed")
}
