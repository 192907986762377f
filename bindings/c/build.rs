//! Generates starpu.h (prelude + cbindgen output + epilogue) and compiles the C walkers of
//! the variadic entry points.
//!
//! The headers land in `$OUT_DIR/include` for the C shim, and in
//! `target/<profile>/include/starpu/1.4` where the Makefile installs them from.

use std::fs;
use std::path::{Path, PathBuf};

/// starpu_config.h's BLAS macros, as StarPU's configure sets them: OpenBLAS when
/// pkg-config knows it, a system BLAS otherwise when one links, and whether `<cblas.h>` is
/// there.
fn blas_defines() -> String {
    let pkg = |name: &str| {
        std::process::Command::new("pkg-config")
            .args(["--exists", name])
            .status()
            .is_ok_and(|s| s.success())
    };
    let compiler = cc::Build::new().get_compiler();
    let cblas_h = std::process::Command::new(compiler.path())
        .args(["-E", "-x", "c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"#include <cblas.h>\n")?;
            c.wait()
        })
        .is_ok_and(|s| s.success());
    let mut out = String::new();
    if pkg("openblas") {
        out.push_str("#define STARPU_HAVE_BLAS 1\n#define STARPU_OPENBLAS 1\n");
    } else if pkg("blas") {
        out.push_str("#define STARPU_HAVE_BLAS 1\n#define STARPU_SYSTEM_BLAS 1\n");
    } else {
        out.push_str("/* no BLAS found when this library was built */\n");
    }
    if cblas_h {
        out.push_str("#define STARPU_HAVE_CBLAS_H 1\n");
    }
    out
}

/// Where CUDA's headers are (`cuda_runtime.h`): `$CUDA_HOME`, `$CUDA_PATH`,
/// /usr/local/cuda, or the system's include directory.
fn cuda_include_dir() -> Option<PathBuf> {
    let roots = ["CUDA_HOME", "CUDA_PATH"]
        .iter()
        .filter_map(|v| std::env::var_os(v).map(PathBuf::from))
        .chain([PathBuf::from("/usr/local/cuda"), PathBuf::from("/usr")]);
    roots
        .map(|r| r.join("include"))
        .find(|d| d.join("cuda_runtime.h").is_file())
}

/// CUDA's include directory where this build uses it (the `cuda` feature and the headers
/// found): starpu.h then includes CUDA's headers, and every C compilation needs it.
fn cuda_include() -> Option<PathBuf> {
    cuda_include_dir().filter(|_| cfg!(feature = "cuda"))
}

/// A C build of the library's own sources, which include starpu.h.
fn c_build(include: &Path) -> cc::Build {
    let mut b = cc::Build::new();
    b.include(include);
    if let Some(dir) = cuda_include() {
        b.include(dir);
    }
    b
}

/// starpu_config.h as this build has it: the features it was built with (OpenCL with the
/// `opencl` feature, StarPU-MPI with `mpi`, CUDA with `cuda` and CUDA's headers found: a
/// program's `#ifdef STARPU_USE_CUDA` sections include them) and the BLAS found.
/// STARPU_MAXOPENCLDEVS is there either way (starpu.h has it too, the bound of `struct
/// starpu_opencl_program`, which starpu_opencl.h declares in every build).
fn config_header(text: &str) -> String {
    let mut features = String::new();
    if cuda_include().is_some() {
        features.push_str("#define STARPU_USE_CUDA 1\n");
    }
    if std::env::var_os("CARGO_FEATURE_OPENCL").is_some() {
        features.push_str("#define STARPU_USE_OPENCL 1\n");
    }
    features.push_str("#define STARPU_MAXOPENCLDEVS 8\n");
    if std::env::var_os("CARGO_FEATURE_MPI").is_some() {
        features.push_str("#define STARPU_USE_MPI 1\n");
    }
    let text = if features.contains("STARPU_USE_CUDA") {
        // One CUDA device per memory node beside main RAM (the core's MAX_NODES is 4).
        text.replace(
            "#define STARPU_MAXCUDADEVS 0",
            "#define STARPU_MAXCUDADEVS 3",
        )
    } else {
        text.to_string()
    };
    text.replace("/* @OPENCL@ */\n", &features)
        .replace("/* @STARPU_BLAS@ */", &blas_defines())
}

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let include = out.join("include");
    fs::create_dir_all(&include).unwrap();

    let config =
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let generated = cbindgen::Builder::new()
        .with_crate(&crate_dir)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read the Rust sources");
    let mut body = Vec::new();
    generated.write(&mut body);

    let hand = crate_dir.join("include");
    let mut header = fs::read_to_string(hand.join("prelude.h")).unwrap();
    header.push_str(&String::from_utf8(body).unwrap());
    header.push_str(&fs::read_to_string(hand.join("epilogue.h")).unwrap());
    fs::write(include.join("starpu.h"), header).unwrap();
    for entry in fs::read_dir(&hand).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if name == "starpu_config.h" {
            let text = fs::read_to_string(&path).unwrap();
            fs::write(include.join(&name), config_header(&text)).unwrap();
        } else if name.ends_with(".h") && name != "prelude.h" && name != "epilogue.h" {
            fs::copy(&path, include.join(&name)).unwrap();
        }
    }
    #[cfg(feature = "mpi")]
    mpi_shim(&crate_dir, &include);
    // target/<profile>/include/starpu/1.4, for `make install`.
    let profile_dir = out.ancestors().nth(3).unwrap();
    copy_dir(&include, &profile_dir.join("include/starpu/1.4"));
    // The flags programs need for CUDA's headers, for the Makefile's starpu-1.4.pc (empty
    // when they are in the system's directory, or not used).
    let cuda_cflags = match cuda_include() {
        Some(d) if d != Path::new("/usr/include") => format!("-I{}", d.display()),
        _ => String::new(),
    };
    fs::write(profile_dir.join("starpu-cuda-cflags"), &cuda_cflags).unwrap();
    // For the header tests, which compile starpu.h.
    println!("cargo:rustc-env=STARPU_CUDA_CFLAGS={cuda_cflags}");

    c_build(&include)
        .file(crate_dir.join("csrc/varargs.c"))
        .file(crate_dir.join("csrc/parallel_workers.c"))
        .file(crate_dir.join("csrc/opencl_args.c"))
        .flag_if_supported("-fvisibility=hidden")
        .warnings(true)
        .compile("starpu_varargs");

    // starpu_parallel_worker_openmp_prologue drives the calling thread's OpenMP team: it
    // is built with -fopenmp and the library links gcc's libgomp (programs that do not use
    // OpenMP still link: libgomp comes as the library's own dependency).
    c_build(&include)
        .file(crate_dir.join("csrc/openmp_prologue.c"))
        .flag("-fopenmp")
        .flag_if_supported("-fvisibility=hidden")
        .warnings(true)
        .compile("starpu_openmp");
    let compiler = cc::Build::new().get_compiler();
    if let Ok(out) = std::process::Command::new(compiler.path())
        .arg("-print-file-name=libgomp.so")
        .output()
    {
        let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
        if let Some(dir) = path.parent().filter(|d| d.is_absolute()) {
            println!("cargo:rustc-link-search=native={}", dir.display());
        }
    }
    println!("cargo:rustc-link-lib=dylib=gomp");

    // The installed file is libstarpu-1.4.so; programs record that name.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libstarpu-1.4.so");
    println!("cargo:rerun-if-env-changed=CUDA_HOME");
    println!("cargo:rerun-if-env-changed=CUDA_PATH");
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=include");
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=../../core/src/data/interfaces");
}

/// StarPU-MPI: starpu_mpi.h beside the other headers, and the C walker of its variadic
/// entry points, built against the MPI that the `mpi` crate uses.
#[cfg(feature = "mpi")]
fn mpi_shim(crate_dir: &Path, include: &Path) {
    let headers = crate_dir.join("include/mpi");
    for entry in fs::read_dir(&headers).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, include.join(path.file_name().unwrap())).unwrap();
    }
    let mpi = build_probe_mpi::probe()
        .expect("no MPI found (install libopenmpi-dev, or build without the mpi feature)");
    let mut b = c_build(include);
    b.file(crate_dir.join("csrc/mpi_varargs.c"));
    for dir in &mpi.include_paths {
        b.include(dir);
    }
    b.flag_if_supported("-fvisibility=hidden")
        .warnings(true)
        .compile("starpu_mpi_varargs");
}

fn copy_dir(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let path = entry.unwrap().path();
        fs::copy(&path, to.join(path.file_name().unwrap())).unwrap();
    }
}
