# The libFuzzer targets, built outside SwiftPM (`make fuzz` runs this file from the repository
# root: make -f Fuzz/fuzz.mk fuzz-build). Each module is compiled once, whole-module, optimised,
# with libFuzzer's coverage instrumentation and AddressSanitizer, into a static library; each
# target is one executable over the modules it needs. Only what changed is rebuilt.
# See docs/robustness.md.

SWIFTC ?= swiftc
PYTHON ?= python3
FUZZ_OUT := .build/fuzz
FUZZ_LIB := $(FUZZ_OUT)/modules
FUZZ_BIN := $(FUZZ_OUT)/bin
FUZZ_TARGETS ?= json-parser ndjson-framer content-length-framer message-framer session

# The modules under test: libFuzzer's coverage instrumentation and AddressSanitizer.
# -enforce-exclusivity=checked and -g: the run-time checks of a debug build, symbolised
# stacks. -swift-version 6: the package's language mode.
FUZZ_SWIFTFLAGS := -swift-version 6 -parse-as-library -O -g -enforce-exclusivity=checked \
  -I $(FUZZ_LIB) -I Sources/CZlib
FUZZ_MODULEFLAGS := $(FUZZ_SWIFTFLAGS) -sanitize=fuzzer,address -whole-module-optimization \
  -emit-library -static
# The targets' own code (invariant checks, reference readers) is compiled with ASan only, so
# that libFuzzer's coverage (cov:, ft:) counts the code under test and nothing else.
FUZZ_HARNESSFLAGS := $(FUZZ_SWIFTFLAGS) -sanitize=address -whole-module-optimization -c
FUZZ_LINKFLAGS := -sanitize=fuzzer,address -use-ld=lld

fuzz_sources = $(shell find Sources/$(1) -name '*.swift' | sort)
FUZZ_COMMON := $(sort $(wildcard Fuzz/Common/*.swift))

# $(call fuzz_module,Name,extra sources,module dependencies)
define fuzz_module
$(FUZZ_LIB)/lib$(1).a: $(call fuzz_sources,$(1)) $(2) $(foreach d,$(3),$(FUZZ_LIB)/lib$(d).a) Fuzz/fuzz.mk
	@mkdir -p $(FUZZ_LIB)
	@echo "fuzz: compiling $(1) (instrumented)" >&2
	@rm -f $$@  # swiftc -static adds to an existing archive: the old objects would stay first
	$(SWIFTC) $(FUZZ_MODULEFLAGS) -module-name $(1) -emit-module \
	  -emit-module-path $(FUZZ_LIB)/$(1).swiftmodule -o $$@ $(call fuzz_sources,$(1)) $(2)
endef

$(FUZZ_OUT)/NativeAdsRPC-resources.swift: Sources/NativeAdsRPC/Resources/builtin-store.json \
    Sources/NativeAdsRPC/Resources/openrpc-examples.json Fuzz/embed-resources.py
	@mkdir -p $(FUZZ_OUT)
	$(PYTHON) Fuzz/embed-resources.py $@ $(filter %.json,$^)

$(FUZZ_OUT)/PNGImages-resources.swift: Sources/PNGImages/Resources/prebuilt-pngs.bin \
    Fuzz/embed-resources.py
	@mkdir -p $(FUZZ_OUT)
	$(PYTHON) Fuzz/embed-resources.py $@ $(filter %.bin,$^)

$(eval $(call fuzz_module,ByteKeys,,))
$(eval $(call fuzz_module,JSONRPC,,ByteKeys))
$(eval $(call fuzz_module,PNGImages,$(FUZZ_OUT)/PNGImages-resources.swift,))
$(eval $(call fuzz_module,NativeAds,,PNGImages ByteKeys))
$(eval $(call fuzz_module,NativeAdsRPC,$(FUZZ_OUT)/NativeAdsRPC-resources.swift,JSONRPC NativeAds))

FUZZ_JSONRPC_LIBS := $(FUZZ_LIB)/libJSONRPC.a $(FUZZ_LIB)/libByteKeys.a
FUZZ_SESSION_LIBS := $(FUZZ_LIB)/libNativeAdsRPC.a $(FUZZ_LIB)/libNativeAds.a \
  $(FUZZ_LIB)/libPNGImages.a $(FUZZ_LIB)/libJSONRPC.a $(FUZZ_LIB)/libByteKeys.a

# $(call fuzz_target,name,Directory,libraries,link flags)
define fuzz_target
$(FUZZ_OUT)/obj/$(1).o: $(FUZZ_COMMON) $(sort $(wildcard Fuzz/$(2)/*.swift)) $(filter %.a,$(3))
	@mkdir -p $(FUZZ_OUT)/obj
	@echo "fuzz: compiling the $(1) target" >&2
	$(SWIFTC) $(FUZZ_HARNESSFLAGS) -module-name $(subst -,_,$(1))_fuzz -o $$@ \
	  $(FUZZ_COMMON) $(sort $(wildcard Fuzz/$(2)/*.swift))

$(FUZZ_BIN)/$(1): $(FUZZ_OUT)/obj/$(1).o $(3)
	@mkdir -p $(FUZZ_BIN)
	$(SWIFTC) $(FUZZ_LINKFLAGS) -o $$@ $$< $(3) $(4)
endef

$(eval $(call fuzz_target,json-parser,JSONParser,$(FUZZ_JSONRPC_LIBS),))
$(eval $(call fuzz_target,ndjson-framer,NDJSONFramer,$(FUZZ_JSONRPC_LIBS),))
$(eval $(call fuzz_target,content-length-framer,ContentLengthFramer,$(FUZZ_JSONRPC_LIBS),))
$(eval $(call fuzz_target,message-framer,MessageFramer,$(FUZZ_JSONRPC_LIBS),))
$(eval $(call fuzz_target,session,Session,$(FUZZ_SESSION_LIBS),-lz))

.PHONY: fuzz-build
fuzz-build: $(addprefix $(FUZZ_BIN)/,$(FUZZ_TARGETS))
