//! Entry points defined through macros are invisible to cbindgen, so their prototypes are
//! written in include/epilogue.h. Each such macro asserts at compile time that the
//! prototype is there, so a new entry of its table cannot go undeclared.

const EPILOGUE: &[u8] = include_str!("../include/epilogue.h").as_bytes();

const fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether include/epilogue.h declares function `name` (`name(` as a whole identifier).
pub const fn in_epilogue(name: &str) -> bool {
    let n = name.as_bytes();
    let mut i = 0;
    while i + n.len() < EPILOGUE.len() {
        let mut j = 0;
        while j < n.len() && EPILOGUE[i + j] == n[j] {
            j += 1;
        }
        if j == n.len() && EPILOGUE[i + j] == b'(' && (i == 0 || !ident_byte(EPILOGUE[i - 1])) {
            return true;
        }
        i += 1;
    }
    false
}

/// Fails the build when include/epilogue.h does not declare `$name`.
macro_rules! assert_declared {
    ($name:ident) => {
        const _: () = assert!(
            $crate::declared::in_epilogue(stringify!($name)),
            concat!(
                stringify!($name),
                " is defined by a macro, which cbindgen does not see: declare it in \
                 bindings/c/include/epilogue.h"
            )
        );
    };
}
pub(crate) use assert_declared;

#[cfg(test)]
mod tests {
    use super::in_epilogue;

    #[test]
    fn finds_whole_declared_names_only() {
        assert!(in_epilogue("starpu_vector_filter_block"));
        assert!(in_epilogue("starpu_task_insert"));
        assert!(!in_epilogue("vector_filter_block"));
        assert!(!in_epilogue("starpu_vector_filter_bloc"));
        assert!(!in_epilogue("starpu_no_such_function"));
    }
}
