//! The only place that chooses between `std` and `libm` float functions,
//! so no other file needs a `cfg`.

#[cfg(feature = "std")]
mod imp {
    pub fn log2(x: f64) -> f64 {
        x.log2()
    }
    pub fn ceil(x: f64) -> f64 {
        x.ceil()
    }
    pub fn sqrt(x: f64) -> f64 {
        x.sqrt()
    }
    pub fn powf(x: f64, y: f64) -> f64 {
        x.powf(y)
    }
    pub fn exp(x: f64) -> f64 {
        x.exp()
    }
}

#[cfg(not(feature = "std"))]
mod imp {
    pub fn log2(x: f64) -> f64 {
        libm::log2(x)
    }
    pub fn ceil(x: f64) -> f64 {
        libm::ceil(x)
    }
    pub fn sqrt(x: f64) -> f64 {
        libm::sqrt(x)
    }
    pub fn powf(x: f64, y: f64) -> f64 {
        libm::pow(x, y)
    }
    pub fn exp(x: f64) -> f64 {
        libm::exp(x)
    }
}

#[allow(unused_imports)]
pub(crate) use imp::*;
