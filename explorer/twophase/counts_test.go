package twophase

// distinctStates and generatedStates pin the size of TwoPhase's state
// space, as reported by TLC for tlaplus/Examples TwoPhase.tla.
var distinctStates = map[int]int64{
	3: 288, 5: 8_832, 7: 296_448, 8: 1_745_408, 9: 10_340_352, 10: 61_515_776,
}

var generatedStates = map[int]int64{
	3: 1_146, 5: 58_146, 7: 2_744_706, 8: 18_507_778, 9: 123_558_402,
}
