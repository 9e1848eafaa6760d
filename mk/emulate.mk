# ---- low-precision emulation ('Emulate') -------------------------------------
# The rounding to bf16 / fp16 (mex/core/la_round.h) against a reference
# computed differently, at every halfway case (validation/tests/c/test_round.c);
# twice: under UBSan, and with the core's optimisation and OpenMP flags
# (test_round_vec), where la_round_array's loops are vectorised as in the
# core (UBSan's checks keep them scalar).
.PHONY: test-round

$(BUILD)/test_round: validation/tests/c/test_round.c mex/core/la_round.h mex/core/la_core.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O2 -Wall -Wextra -fsanitize=undefined -fno-sanitize-recover=all \
	  -Imex/core validation/tests/c/test_round.c -o $@ -lm

$(BUILD)/test_round_vec: validation/tests/c/test_round.c mex/core/la_round.h mex/core/la_core.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) -fopenmp -fno-math-errno -Wall -Wextra -Imex/core validation/tests/c/test_round.c \
	  -o $@ -lm

test-round: $(BUILD)/test_round $(BUILD)/test_round_vec ## step: the bf16 / fp16 rounding at every halfway case
	$(BUILD)/test_round
	$(BUILD)/test_round_vec

TEST_STEPS += test-round
