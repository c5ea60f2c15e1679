# callgrind-fold: patched Valgrind 3.27.1 + callgrind_fold.
#
#   make            build the patched Valgrind and callgrind_fold, install in $(PREFIX)
#   make check      build everything and run every test; ends with "N passed, M failed"
#   make demo       profile the programs in examples/, outputs under demo/
#   make stock      build the unpatched Valgrind (for side-by-side comparisons)
#   make deb        build the Debian package callgrind-fold_<version>_amd64.deb here
#                   (ARCH=arm64: callgrind-fold_<version>_arm64.deb)
#   make patches    export the commits of build/valgrind as patches/
#   make bench      benchmarks against the stock build (bench/)
#   make ARCH=arm64 [check]   cross-build the same series for arm64, test it under qemu
#
# See README.md and docs/.

# ARCH=arm64: the patched Valgrind cross-built for aarch64 in
# build/valgrind-arm64 and callgrind_fold in
# callgrind_fold/obj-aarch64-linux-gnu, installed in dist-arm64
# (docs/arm64-notes.md).
ARCH         ?=
ifeq ($(ARCH),arm64)
PREFIX       ?= $(CURDIR)/dist-arm64
else ifneq ($(filter-out amd64,$(ARCH)),)
$(error ARCH=$(ARCH): only arm64 (or amd64, the default) is supported)
endif
PREFIX       ?= $(CURDIR)/dist
BUILD        ?= $(CURDIR)/build
CACHE        ?= $(BUILD)/cache
TREE         := $(BUILD)/valgrind
STOCK_TREE   := $(BUILD)/stock
STOCK_PREFIX := $(BUILD)/stock-dist
ARM64_TREE   := $(BUILD)/valgrind-arm64
JOBS         ?= 2
export JOBS

# callgrind_fold is built once its directory has a Makefile.
FOLD := $(if $(wildcard callgrind_fold/Makefile),fold)

.PHONY: all install valgrind fold stock check demo bench deb patches reset-tree \
        deps deps-check tarball clean distclean help valgrind-arm64 fold-arm64

ifeq ($(ARCH),arm64)
all: valgrind-arm64 $(if $(FOLD),fold-arm64)

check: deps-check all
	@PREFIX=$(PREFIX) BUILD=$(BUILD) TREE=$(ARM64_TREE) scripts/check.sh arm64

deb:
	@scripts/deps.sh deb
	@ARCH=arm64 BUILD=$(BUILD) CACHE=$(CACHE) scripts/make-deb.sh $(CURDIR)

demo bench stock:
	@echo "make $@ is not available with ARCH=arm64 (see docs/arm64-notes.md)" >&2; exit 1
else
all: valgrind $(FOLD)
endif

install: all

help:
	@sed -n '3,11p' Makefile

deps:
	@scripts/deps.sh $(if $(filter arm64,$(ARCH)),arm64,build)

deps-check:
	@ARCH=$(ARCH) scripts/deps.sh check

tarball: deps
	@scripts/fetch-upstream.sh $(CACHE) >/dev/null

valgrind: deps
	@tarball=$$(scripts/fetch-upstream.sh $(CACHE)) && \
	 scripts/prepare-tree.sh "$$tarball" $(TREE) patched && \
	 scripts/build-valgrind.sh $(TREE) $(PREFIX) --enable-maintainer-mode

# The same series, cross-built for aarch64 (configure --host).
valgrind-arm64: deps
	@tarball=$$(scripts/fetch-upstream.sh $(CACHE)) && \
	 scripts/prepare-tree.sh "$$tarball" $(ARM64_TREE) patched && \
	 scripts/build-valgrind.sh $(ARM64_TREE) $(PREFIX) --host=aarch64-linux-gnu --enable-maintainer-mode

fold: valgrind
	@$(MAKE) -s -C callgrind_fold
	@$(MAKE) -s -C callgrind_fold install PREFIX=$(PREFIX)

# callgrind_fold cross-built (make -C callgrind_fold cross-install).
fold-arm64: valgrind-arm64
	@$(MAKE) -s -C callgrind_fold cross-install CROSS=aarch64-linux-gnu PREFIX=$(PREFIX)

ifneq ($(ARCH),arm64)
stock: deps
	@tarball=$$(scripts/fetch-upstream.sh $(CACHE)) && \
	 scripts/prepare-tree.sh "$$tarball" $(STOCK_TREE) stock && \
	 scripts/build-valgrind.sh $(STOCK_TREE) $(STOCK_PREFIX)
endif

ifneq ($(ARCH),arm64)
check: deps-check all stock
	@PREFIX=$(PREFIX) BUILD=$(BUILD) scripts/check.sh
endif

ifneq ($(ARCH),arm64)
demo: all
	@scripts/demo.sh $(PREFIX)

bench: deps-check all stock
	@PREFIX=$(PREFIX) BUILD=$(BUILD) bench/run.sh

# From the pinned tarball and patches/ alone, in a fresh directory: not
# from build/valgrind (scripts/make-deb.sh).
deb:
	@scripts/deps.sh deb
	@BUILD=$(BUILD) CACHE=$(CACHE) scripts/make-deb.sh $(CURDIR)
endif

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
	-@[ ! -f $(ARM64_TREE)/Makefile ] || $(MAKE) -s -C $(ARM64_TREE) clean >/dev/null
	-@[ -z "$(FOLD)" ] || $(MAKE) -s -C callgrind_fold clean
	rm -rf demo bench/work

distclean:
	rm -rf $(BUILD) $(CURDIR)/dist $(CURDIR)/dist-arm64 demo bench/work
	-@[ -z "$(FOLD)" ] || $(MAKE) -s -C callgrind_fold clean
