// Package kafkabroker runs Apache Kafka's own broker as a test component: one KRaft node,
// broker and controller at once, on loopback, with group timings low enough for a test to wait
// a session or a rebalance out (Settings). It resolves the broker's jars with Maven (the
// pom.xml beside this package, kafka.version a property), formats the storage directory
// (kafka.tools.StorageTool format), starts kafka.Kafka, and returns once the broker serves:
// a Metadata round trip that lists this node and a FindCoordinator round trip that finds the
// group coordinator, so the first test does not pay for __consumer_offsets being created.
//
//	cp, err := kafkabroker.Classpath(ctx, "conformance/kafka", "4.4.0")
//	b, err := kafkabroker.Start(ctx, kafkabroker.Config{Dir: dir, Port: 39092, Classpath: cp})
//	defer b.Stop(context.Background())
//	... clients dial b.Addr() ...
//
// Every failure names what failed: java missing, a classpath missing or naming absent jars, a
// port in use, or the broker exiting before it served, with the last lines of its log.
package kafkabroker
