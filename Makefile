# ulid: time-sortable identifiers for PostgreSQL (PGXS build)

EXTENSION = ulid
EXTVERSION = 1.0

MODULE_big = ulid
# src/core: the pure-C core (no PostgreSQL calls); src: the fmgr glue
OBJS = $(patsubst %.c,%.o,$(sort $(wildcard src/*.c src/core/*.c)))

# hand-edited install script, copied to the versioned name at build time;
# frozen upgrade scripts (ulid--A--B.sql) are listed as they are added
DATA_built = sql/$(EXTENSION)--$(EXTVERSION).sql
DATA = $(wildcard sql/$(EXTENSION)--*--*.sql)

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

# used by the test harness
.PHONY: print-regress
print-regress:
	@echo $(REGRESS)
