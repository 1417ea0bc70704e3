//! The only place that chooses between `std` and `libm` float functions,
//! so no other file needs a `cfg`.

#[cfg(feature = "std")]
mod imp {
    pub fn log2(x: f64) -> f64 {
        x.log2()
    }
    pub fn ln(x: f64) -> f64 {
        x.ln()
    }
    pub fn sqrt(x: f64) -> f64 {
        x.sqrt()
    }
    pub fn floor(x: f64) -> f64 {
        x.floor()
    }
    pub fn exp2(x: f64) -> f64 {
        x.exp2()
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub fn log2(x: f64) -> f64 {
        libm::log2(x)
    }
    pub fn ln(x: f64) -> f64 {
        libm::log(x)
    }
    pub fn sqrt(x: f64) -> f64 {
        libm::sqrt(x)
    }
    pub fn floor(x: f64) -> f64 {
        libm::floor(x)
    }
    pub fn exp2(x: f64) -> f64 {
        libm::exp2(x)
    }
}

pub(crate) use imp::*;
