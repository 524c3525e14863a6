package kafkabroker

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Settings are the broker properties a test broker runs with, before Config.Overrides. One
// node is broker and KRaft controller at once (process.roles, KIP-500), on loopback only.
// Every internal topic has one replica, and the group timings are as low as Kafka accepts so
// that a test can wait a session or a rebalance out:
//
//   - group.initial.rebalance.delay.ms 0: a new classic group's first rebalance does not wait
//     3 s for more members (GroupCoordinatorConfig.GROUP_INITIAL_REBALANCE_DELAY_MS);
//   - group.min.session.timeout.ms 100 (Kafka's default is 6000): a classic JoinGroup asks for
//     its own session timeout and is refused below this minimum
//     (ClassicGroupJoinHelper / GroupMetadataManager.classicGroupJoin, INVALID_SESSION_TIMEOUT);
//   - group.consumer.min.session.timeout.ms and group.consumer.min.heartbeat.interval.ms 1
//     (defaults 45000 and 5000): KIP-848 session and heartbeat are the coordinator's, from
//     group.consumer.session.timeout.ms and group.consumer.heartbeat.interval.ms or a group's
//     own consumer.session.timeout.ms / consumer.heartbeat.interval.ms (KIP-848 "Group
//     configurations"), each validated against these minimums;
//   - both group protocols are on by default from Kafka 4.0 (group.coordinator.rebalance.protocols
//     classic,consumer; 4.4 deprecates setting it and setting it turns the streams protocol off);
//   - auto.create.topics.enable false: the harness creates what it consumes, and a typo in a
//     topic name is an error, not a new topic.
//
// The default KIP-848 session and heartbeat are the conformance harness's DefaultTiming
// (1500 ms, 150 ms); a run that wants others sets a group config or an override.
func Settings(port, controllerPort int, logDir string) map[string]string {
	listen := "127.0.0.1:" + strconv.Itoa(port)
	ctl := "127.0.0.1:" + strconv.Itoa(controllerPort)
	return map[string]string{
		"process.roles":                                    "broker,controller",
		"node.id":                                          "1",
		"controller.quorum.voters":                         "1@" + ctl,
		"listeners":                                        "PLAINTEXT://" + listen + ",CONTROLLER://" + ctl,
		"advertised.listeners":                             "PLAINTEXT://" + listen,
		"controller.listener.names":                        "CONTROLLER",
		"inter.broker.listener.name":                       "PLAINTEXT",
		"listener.security.protocol.map":                   "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
		"log.dirs":                                         logDir,
		"num.partitions":                                   "1",
		"default.replication.factor":                       "1",
		"auto.create.topics.enable":                        "false",
		"offsets.topic.replication.factor":                 "1",
		"offsets.topic.num.partitions":                     "1",
		"transaction.state.log.replication.factor":         "1",
		"transaction.state.log.min.isr":                    "1",
		"transaction.state.log.num.partitions":             "1",
		"share.coordinator.state.topic.replication.factor": "1",
		"share.coordinator.state.topic.min.isr":            "1",
		"group.initial.rebalance.delay.ms":                 "0",
		"group.min.session.timeout.ms":                     "100",
		"group.consumer.min.session.timeout.ms":            "1",
		"group.consumer.min.heartbeat.interval.ms":         "1",
		"group.consumer.session.timeout.ms":                "1500",
		"group.consumer.heartbeat.interval.ms":             "150",
	}
}

// properties renders settings as a Java properties file, keys sorted so that two runs with
// the same settings write the same file.
func properties(settings map[string]string) (string, error) {
	keys := make([]string, 0, len(settings))
	for k := range settings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("# Written by groupcheck's kafkabroker for a single-node test broker.\n")
	for _, k := range keys {
		v := settings[k]
		if k == "" || strings.ContainsAny(k, "=:\n\r \t") || strings.ContainsAny(v, "\n\r") {
			return "", fmt.Errorf("broker property %q=%q: keys may not hold '=', ':' or spaces, values no line breaks", k, v)
		}
		fmt.Fprintf(&b, "%s=%s\n", k, strings.ReplaceAll(v, `\`, `\\`))
	}
	return b.String(), nil
}

// log4j2 keeps the broker's own log to what a test reads: the group coordinator's decisions
// (joins, expiries, fencing, at INFO) and every component's warnings.
const log4j2 = `status = warn
appender.out.type = Console
appender.out.name = out
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d{HH:mm:ss.SSS}] %p %c{1} %m%n
rootLogger.level = warn
rootLogger.appenderRef.out.ref = out
logger.group.name = org.apache.kafka.coordinator.group
logger.group.level = info
logger.server.name = kafka.server.KafkaRaftServer
logger.server.level = info
`
