//! The only place that chooses between `std` and `libm` float functions,
//! so no other file needs a `cfg`.

#[cfg(feature = "std")]
mod imp {
    pub fn log2(x: f64) -> f64 {
        x.log2()
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub fn log2(x: f64) -> f64 {
        libm::log2(x)
    }
}

pub(crate) use imp::*;
