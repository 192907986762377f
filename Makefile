# Builds and installs libstarpu (the C face, with the Fortran helpers and, where MPI is
# found, StarPU-MPI) and fstarpu_mod.f90 where programs find them with pkg-config
# (starpu-1.4; starpumpi-1.4 for StarPU-MPI):
#   make install PREFIX=/some/dir
#   cc $(PKG_CONFIG_PATH=/some/dir/lib/pkgconfig pkg-config --cflags --libs starpu-1.4) app.c
#   Fortran: README.md, "Using the Fortran module"
PREFIX   ?= $(CURDIR)/build/install
CARGO    ?= cargo
VERSION  := 1.4
LIBDIR   := $(PREFIX)/lib
INCDIR   := $(PREFIX)/include/starpu/$(VERSION)
PCDIR    := $(LIBDIR)/pkgconfig
BINDIR   := $(PREFIX)/bin
OUT      := target/release
# StarPU's tools (tools/): traces, performance models, the machine.
TOOLS    := starpu_fxt_tool starpu_perfmodel_display starpu_perfmodel_plot \
	starpu_machine_display starpu_tasks_rec_complete starpu_codelet_profile \
	starpu_workers_activity
# StarPU-MPI is built in (cargo feature `mpi`, on by default) when an MPI is found.
HAVE_MPI := $(shell command -v mpicc >/dev/null 2>&1 && echo yes)
MPI_PC   := $(firstword $(foreach p,mpi ompi-c mpich,$(shell pkg-config --exists $(p) 2>/dev/null && echo $(p))))
FEATURES := $(if $(HAVE_MPI),,--no-default-features --features mimalloc,opencl,cuda)

.PHONY: all build install uninstall clean

all: build

build:
	$(CARGO) build --release -p starpu-c $(FEATURES)
	$(CARGO) build --release -p starpu-tools

install: build
	install -d $(LIBDIR) $(INCDIR) $(PCDIR)
	install -m 755 $(OUT)/libstarpu.so $(LIBDIR)/libstarpu-$(VERSION).so
	install -m 644 $(OUT)/libstarpu.a $(LIBDIR)/libstarpu-$(VERSION).a
	install -m 644 $(OUT)/include/starpu/$(VERSION)/*.h $(INCDIR)/
	# Where StarPU installs it: programs include <schedulers/starpu_heteroprio.h>.
	install -d $(INCDIR)/schedulers
	install -m 644 $(OUT)/include/starpu/$(VERSION)/starpu_heteroprio.h $(INCDIR)/schedulers/
	# The Fortran module, as source: .mod files are compiler-specific.
	install -m 644 bindings/fortran/fstarpu_mod.f90 $(INCDIR)/
	# CUDA's include directory, where the library was built with CUDA's headers (build.rs).
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|g' \
		-e "s|@CUDA_CFLAGS@|$$(cat $(OUT)/starpu-cuda-cflags 2>/dev/null)|" \
		bindings/c/starpu.pc.in > $(PCDIR)/starpu-$(VERSION).pc
	# Names existing makefiles use for StarPU. StarPU's Fortran makefiles look for an
	# include directory ending in starpu/1.3 in starpu-1.3's flags: give them one.
	ln -sfn $(VERSION) $(PREFIX)/include/starpu/1.3
	sed -e 's|/starpu/$(VERSION)|/starpu/1.3|g' $(PCDIR)/starpu-$(VERSION).pc > $(PCDIR)/starpu-1.3.pc
	cp $(PCDIR)/starpu-$(VERSION).pc $(PCDIR)/libstarpu.pc
	# The tools, as built by `build` (a caller that builds the library alone, with
	# CARGO=true and its own OUT, gets none).
	install -d $(BINDIR)
	for t in $(TOOLS); do if [ -f $(OUT)/$$t ]; then install -m 755 $(OUT)/$$t $(BINDIR)/; fi; done
ifeq ($(HAVE_MPI),yes)
	# StarPU-MPI lives in libstarpu (one runtime per process); libstarpumpi-1.4.so only
	# depends on it, for programs linked with -lstarpumpi-1.4.
	$(CC) -shared -x c /dev/null -o $(LIBDIR)/libstarpumpi-$(VERSION).so -Wl,-soname,libstarpumpi-$(VERSION).so \
		-Wl,--no-as-needed -L$(LIBDIR) -lstarpu-$(VERSION) -Wl,-rpath,$(LIBDIR)
	install -m 644 bindings/fortran/fstarpu_mpi_mod.f90 $(INCDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|g' -e 's|@MPI_PC@|$(MPI_PC)|' \
		bindings/c/starpumpi.pc.in > $(PCDIR)/starpumpi-$(VERSION).pc
	sed -e 's|/starpu/$(VERSION)|/starpu/1.3|g' -e 's|starpu-$(VERSION)|starpu-1.3|' \
		$(PCDIR)/starpumpi-$(VERSION).pc > $(PCDIR)/starpumpi-1.3.pc
	cp $(PCDIR)/starpumpi-$(VERSION).pc $(PCDIR)/libstarpumpi.pc
endif

uninstall:
	rm -f $(LIBDIR)/libstarpu-$(VERSION).so $(LIBDIR)/libstarpu-$(VERSION).a
	rm -rf $(INCDIR) $(PREFIX)/include/starpu/1.3
	rm -f $(PCDIR)/starpu-$(VERSION).pc $(PCDIR)/starpu-1.3.pc $(PCDIR)/libstarpu.pc
	rm -f $(addprefix $(BINDIR)/,$(TOOLS))
	rm -f $(LIBDIR)/libstarpumpi-$(VERSION).so $(PCDIR)/starpumpi-$(VERSION).pc $(PCDIR)/starpumpi-1.3.pc $(PCDIR)/libstarpumpi.pc

clean:
	$(CARGO) clean
	rm -rf build
