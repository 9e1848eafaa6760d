# ---- low-precision emulation ('Emulate') -------------------------------------
# The rounding to bf16 / fp16 (mex/core/la_round.h) against a reference
# computed differently, at every halfway case (mex/tests/test_round.c).
.PHONY: test-round

$(BUILD)/test_round: mex/tests/test_round.c mex/core/la_round.h mex/core/la_core.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -fsanitize=undefined -fno-sanitize-recover=all \
	  mex/tests/test_round.c -o $@ -lm

test-round: $(BUILD)/test_round
	$(BUILD)/test_round

TEST_STEPS += test-round
