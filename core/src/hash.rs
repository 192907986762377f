//! StarPU's CRC-32C hash, big-endian (most significant bit first, polynomial 0x1EDC6F41,
//! no reflection, no final inversion): what data footprints are made of. Footprints must
//! be StarPU's exactly, since performance-model files written by StarPU key their entries
//! by them.

const POLY: u32 = 0x1EDC_6F41;

/// Folds one byte into `crc`.
fn byte(b: u8, crc: u32) -> u32 {
    let mut crc = crc ^ ((b as u32) << 24);
    for _ in 0..8 {
        crc = (crc << 1) ^ if crc & 0x8000_0000 != 0 { POLY } else { 0 };
    }
    crc
}

/// `starpu_hash_crc32c_be_n`: folds `bytes` into `crc`.
pub fn crc32c_be_n(bytes: &[u8], crc: u32) -> u32 {
    bytes.iter().fold(crc, |c, &b| byte(b, c))
}

/// `starpu_hash_crc32c_be`: folds the 4 bytes of `value`, in memory order, into `crc`.
pub fn crc32c_be(value: u32, crc: u32) -> u32 {
    crc32c_be_n(&value.to_ne_bytes(), crc)
}

/// `starpu_hash_crc32c_string`: folds the bytes of `s` into `crc`.
pub fn crc32c_string(s: &str, crc: u32) -> u32 {
    crc32c_be_n(s.as_bytes(), crc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // One bit shifted through the polynomial: 0x01 << 24 after 8 shifts.
        assert_eq!(byte(0x01, 0), POLY);
        assert_eq!(crc32c_be_n(&[], 7), 7);
        assert_eq!(crc32c_string("ab", 0), byte(b'b', byte(b'a', 0)));
        assert_eq!(
            crc32c_be(0x0403_0201, 0),
            crc32c_be_n(&0x0403_0201u32.to_ne_bytes(), 0)
        );
        assert_ne!(crc32c_be(10, 0), crc32c_be(11, 0));
    }
}
