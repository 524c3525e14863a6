// Package kafkago runs real kafka-go (github.com/segmentio/kafka-go) ConsumerGroup members
// against kfake through the shared conformance harness (conformance/harness), under each
// balancer kafka-go ships, and checks every run with groupcheck's oracle. It is its own Go
// module so that only it imports kafka-go.
package kafkago
