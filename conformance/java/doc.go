// Package java runs Apache Kafka's own consumer (KafkaConsumer from kafka-clients) against
// kfake through the shared conformance harness (conformance/harness), and checks every run
// with groupcheck's oracle. Each member is its own JVM, so a crash is a kill (SIGKILL).
//
// The Java side (src/main/java/groupcheck/Driver.java, built with Maven from pom.xml once per
// test process, offline when the local repository has everything) holds no application
// logic: the Go side drives it over a line protocol, one command a line on its stdin, one
// JSON event a line on its stdout. Its rebalance callbacks (onPartitionsAssigned, Revoked,
// Lost) and its commits wait for the Go side before they go on, so the history records a
// callback's begin before the callback does anything, its end before the consumer continues,
// and a commit's begin before the commit is sent. Member ID and generation (the member epoch
// under group.protocol=consumer) come from KafkaConsumer.groupMetadata(), read on the
// consumer's thread as every event is written.
//
// The JVM opens its own sockets, so its connections are tapped and cut on kfake's side
// (Protocol.ServerTap, harness.Server); the client ID is the node's name, which binds them.
//
// An exception from poll() is reported with the reaction the application took: "continue"
// (poll again, the consumer stays usable and rejoins) or "stop" (close the consumer and
// exit), where groupcheck's reference clients stop on a fatal error.
package java
