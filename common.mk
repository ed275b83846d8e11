# SPDX-License-Identifier: GPL-2.0-only
# Shared settings of the user-space Makefiles (lib/, tools/, tests/).

TOP := $(dir $(lastword $(MAKEFILE_LIST)))
CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
	  -I$(TOP)include/uapi -I$(TOP)include -I$(TOP)tests/common
CHECK_CFLAGS := $(shell pkg-config --cflags check)
CHECK_LIBS := $(shell pkg-config --libs check)

# Quiet by default; V=1 shows every command. $(S) silences a sub-make
# (its "Entering directory" lines and recipes), except under V=1.
ifeq ($(V),1)
Q :=
S :=
else
Q := @
S := -s
endif
