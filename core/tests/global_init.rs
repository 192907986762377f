//! The process-wide runtime's init/shutdown nesting, as faces see it through `init_count`.

use starpu_core::{Config, ErrorKind};

#[test]
fn init_calls_nest_and_the_count_says_how_deep() {
    let config = || Config {
        ncpus: Some(1),
        silent: true,
        ..Config::default()
    };
    assert_eq!(starpu_core::runtime::init_count(), 0);
    let first = starpu_core::init(config()).unwrap();
    let second = starpu_core::init(config()).unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &second));
    assert_eq!(starpu_core::runtime::init_count(), 2);
    starpu_core::shutdown().unwrap();
    assert_eq!(starpu_core::runtime::init_count(), 1);
    assert!(starpu_core::runtime::is_initialized());
    starpu_core::shutdown().unwrap();
    assert_eq!(starpu_core::runtime::init_count(), 0);
    assert!(!starpu_core::runtime::is_initialized());
    let e = starpu_core::shutdown().unwrap_err();
    assert_eq!(e.kind, ErrorKind::NotInitialized);
}
