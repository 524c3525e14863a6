// Package confluent runs real librdkafka consumers, through confluent-kafka-go v2 (which
// bundles librdkafka and needs cgo), against kfake through the shared conformance harness
// (conformance/harness), and checks every run with groupcheck's oracle. It is its own Go
// module so that only it imports confluent-kafka-go.
package confluent
