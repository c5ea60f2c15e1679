# callgrind-fold: patched Valgrind 3.27.1 + callgrind_fold.
#
#   make            build the patched Valgrind and callgrind_fold, install in $(PREFIX)
#   make check      build everything and run every test; ends with "N passed, M failed"
#   make demo       profile the programs in examples/, outputs under demo/
#   make stock      build the unpatched Valgrind (for side-by-side comparisons)
#   make deb        build the Debian package callgrind-fold_<version>_amd64.deb here
#   make patches    export the commits of build/valgrind as patches/
#   make bench      benchmarks against the stock build (bench/)
#
# See README.md and docs/.

PREFIX       ?= $(CURDIR)/dist
BUILD        ?= $(CURDIR)/build
CACHE        ?= $(BUILD)/cache
TREE         := $(BUILD)/valgrind
STOCK_TREE   := $(BUILD)/stock
STOCK_PREFIX := $(BUILD)/stock-dist
JOBS         ?= 2
export JOBS

# callgrind_fold is built once its directory has a Makefile.
FOLD := $(if $(wildcard callgrind_fold/Makefile),fold)

.PHONY: all install valgrind fold stock check demo bench deb patches reset-tree \
        deps deps-check tarball clean distclean help

all: valgrind $(FOLD)

install: all

help:
	@sed -n '3,11p' Makefile

deps:
	@scripts/deps.sh build

deps-check:
	@scripts/deps.sh check

tarball: deps
	@scripts/fetch-upstream.sh $(CACHE) >/dev/null

valgrind: deps
	@tarball=$$(scripts/fetch-upstream.sh $(CACHE)) && \
	 scripts/prepare-tree.sh "$$tarball" $(TREE) patched && \
	 scripts/build-valgrind.sh $(TREE) $(PREFIX) --enable-maintainer-mode

fold: valgrind
	@$(MAKE) -s -C callgrind_fold
	@$(MAKE) -s -C callgrind_fold install PREFIX=$(PREFIX)

stock: deps
	@tarball=$$(scripts/fetch-upstream.sh $(CACHE)) && \
	 scripts/prepare-tree.sh "$$tarball" $(STOCK_TREE) stock && \
	 scripts/build-valgrind.sh $(STOCK_TREE) $(STOCK_PREFIX)

check: deps-check all stock
	@PREFIX=$(PREFIX) BUILD=$(BUILD) scripts/check.sh

demo: all
	@scripts/demo.sh $(PREFIX)

bench: deps-check all stock
	@PREFIX=$(PREFIX) BUILD=$(BUILD) bench/run.sh

# From the pinned tarball and patches/ alone, in a fresh directory: not
# from build/valgrind (scripts/make-deb.sh).
deb:
	@scripts/deps.sh deb
	@BUILD=$(BUILD) CACHE=$(CACHE) scripts/make-deb.sh $(CURDIR)

patches:
	@scripts/export-patches.sh $(TREE)

# Throw away the patched tree (and any unexported work in it) and re-create
# it from upstream + patches/.
reset-tree:
	rm -rf $(TREE)
	@$(MAKE) -s valgrind

clean:
	-@[ ! -f $(TREE)/Makefile ] || $(MAKE) -s -C $(TREE) clean >/dev/null
	-@[ ! -f $(STOCK_TREE)/Makefile ] || $(MAKE) -s -C $(STOCK_TREE) clean >/dev/null
	-@[ -z "$(FOLD)" ] || $(MAKE) -s -C callgrind_fold clean
	rm -rf demo bench/work

distclean:
	rm -rf $(BUILD) $(CURDIR)/dist demo bench/work
	-@[ -z "$(FOLD)" ] || $(MAKE) -s -C callgrind_fold clean
