// Package sarama runs real Sarama (github.com/IBM/sarama) ConsumerGroup members against kfake
// through the shared conformance harness (conformance/harness), under each balance strategy
// Sarama ships, and checks every run with groupcheck's oracle. It is its own Go module so that
// only it imports Sarama.
package sarama
