# A makefile for the recompiled make against Debian's (tests/brighten/upstream-program.sh):
# pattern rules, the text functions, call/eval/shell, conditionals, a failing recipe.
SRCS := alpha.c beta.c gamma.c
OBJS := $(SRCS:.c=.o)
UPPER = $(shell echo $(1) | tr a-z A-Z)
define greet
hello $(1) from $(2)
endef
WORDS := one two three four five
ifeq ($(origin CC),default)
CCKIND := default-cc
else
CCKIND := user-cc
endif

all: report $(OBJS)
	@echo "all done: $^"

%.o: %.c
	@echo "compile $< -> $@"
	@touch $@

%.c:
	@echo "int $(basename $@);" > $@

report:
	@echo "objs: $(OBJS)"
	@echo "upper: $(call UPPER,mixed Case)"
	@echo "$(call greet,world,make)"
	@echo "words: $(words $(WORDS)) first: $(firstword $(WORDS)) last: $(lastword $(WORDS))"
	@echo "sorted: $(sort $(WORDS) zero)"
	@echo "filtered: $(filter t%,$(WORDS)) out: $(filter-out t%,$(WORDS))"
	@echo "subst: $(subst o,0,$(WORDS)) patsubst: $(patsubst %e,%E,$(WORDS))"
	@echo "foreach: $(foreach w,$(WORDS),<$(w)>)"
	@echo "if: $(if $(WORDS),yes,no) $(if ,yes,no) or: $(or ,,x) and: $(and a,b,c)"
	@echo "dir: $(dir src/a.c lib/b.h) notdir: $(notdir src/a.c lib/b.h) suffix: $(suffix a.c b.tar.gz)"
	@echo "wildcard: $(sort $(wildcard *.mk))"
	@echo "strip: [$(strip   a   b   c  )] findstring: $(findstring two,$(WORDS))"
	@echo "join: $(join a b c,1 2 3) addprefix: $(addprefix p/,x y) addsuffix: $(addsuffix .s,x y)"
	@echo "eval: $(eval NEWVAR := made)$(NEWVAR) value: $(value UPPER) flavor: $(flavor OBJS) $(flavor UPPER)"
	@echo "cc: $(CCKIND) make: $(MAKE_VERSION) level: $(MAKELEVEL)"
	@echo "numbers: $(words $(foreach a,1 2 3 4 5 6 7 8 9,$(foreach b,1 2 3,$(a)$(b))))"

clean:
	@rm -f *.o *.c

fail:
	@echo before failing
	@false
	@echo never

.PHONY: all report clean fail
