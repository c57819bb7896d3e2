# ulid: time-sortable identifiers for PostgreSQL (PGXS build)

EXTENSION = ulid
# the version the hand-edited sql/ulid.sql installs: the control file's
EXTVERSION = $(shell sed -n "s/^default_version *= *'\(.*\)'/\1/p" $(EXTENSION).control)

MODULE_big = ulid
# src/core: the pure-C core (no PostgreSQL calls); src: the fmgr glue
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c src/core/*.c)))

# Releases (pgvector's layout): sql/ulid.sql is the hand-edited script of
# the current version, copied to its versioned name at build time; every
# released version keeps its frozen full script (ulid--1.0.sql) and each
# step its frozen upgrade script (ulid--A--B.sql).  Both are picked up by
# name: a release adds files and changes default_version, not this Makefile.
DATA_built = sql/$(EXTENSION)--$(EXTVERSION).sql
DATA = $(filter-out $(DATA_built),$(wildcard sql/$(EXTENSION)--*.sql))

# one pg_regress file per feature: every sql/*.sql but the install scripts,
# after setup.sql (the helpers the others use)
REGRESS = setup $(sort $(filter-out setup $(EXTENSION) $(EXTENSION)--%,$(basename $(notdir $(wildcard sql/*.sql)))))
REGRESS_OPTS = --load-extension=$(EXTENSION)

EXTRA_CLEAN = sql/$(EXTENSION)--$(EXTVERSION).sql results regression.diffs regression.out

PG_CONFIG ?= pg_config
PGXS := $(shell $(PG_CONFIG) --pgxs)
PG_CPPFLAGS += -isystem $(includedir_server) -Isrc -Isrc/core
include $(PGXS)

# PGXS tracks no header dependencies: rebuild everything when a header changes
$(OBJS): $(wildcard src/*.h src/core/*.h)

sql/$(EXTENSION)--$(EXTVERSION).sql: sql/$(EXTENSION).sql
	cp $< $@

# make dist: ulid-X.Y.Z.zip for PGXN (X.Y.Z: META.json's version at
# DIST_REF), the files of commit DIST_REF (default HEAD: check out the
# release's tag vX.Y.Z first) under ulid-X.Y.Z/, without the dotfiles and
# debian/ (test/README.md, "Cutting a release"); written to DIST_DIR
DIST_REF ?= HEAD
DIST_DIR ?= .
.PHONY: dist
dist:
	@v=$$(git show $(DIST_REF):META.json | sed -n 's/^   "version": "\(.*\)",$$/\1/p') && test -n "$$v" && \
	git archive --format=zip --prefix=$(EXTENSION)-$$v/ -o $(DIST_DIR)/$(EXTENSION)-$$v.zip $(DIST_REF) -- . ':!.*' ':!debian' && \
	echo $(DIST_DIR)/$(EXTENSION)-$$v.zip

# used by the test harness
.PHONY: print-regress
print-regress:
	@echo $(REGRESS)
