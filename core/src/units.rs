//! Physical quantities as `Copy` newtypes stored in SI base units
//! (bytes, seconds, bytes per second, FLOP, FLOP per second, watts).
//! Conversions happen only at the edges, through the named constructors
//! and accessors.

use core::ops::{Add, AddAssign, Div, Mul, Sub};
use serde::{Deserialize, Serialize};

macro_rules! quantity {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub f64);

        impl Add for $name {
            type Output = Self;
            fn add(self, rhs: Self) -> Self {
                Self(self.0 + rhs.0)
            }
        }
        impl AddAssign for $name {
            fn add_assign(&mut self, rhs: Self) {
                self.0 += rhs.0;
            }
        }
        impl Sub for $name {
            type Output = Self;
            fn sub(self, rhs: Self) -> Self {
                Self(self.0 - rhs.0)
            }
        }
        impl Mul<f64> for $name {
            type Output = Self;
            fn mul(self, rhs: f64) -> Self {
                Self(self.0 * rhs)
            }
        }
        impl Div<f64> for $name {
            type Output = Self;
            fn div(self, rhs: f64) -> Self {
                Self(self.0 / rhs)
            }
        }
        impl $name {
            /// The larger of two quantities.
            #[must_use]
            pub fn max(self, other: Self) -> Self {
                if other.0 > self.0 { other } else { self }
            }
            /// The smaller of two quantities.
            #[must_use]
            pub fn min(self, other: Self) -> Self {
                if other.0 < self.0 { other } else { self }
            }
        }
    };
}

quantity!(
    /// Bytes of memory or of data on a wire.
    Bytes
);
quantity!(
    /// Seconds of wall-clock time.
    Seconds
);
quantity!(
    /// Bytes per second moved over a link or out of memory.
    Bandwidth
);
quantity!(
    /// Floating-point operations (a count, not a rate).
    Flop
);
quantity!(
    /// Floating-point operations per second.
    FlopRate
);
quantity!(
    /// Watts of electrical power.
    Watts
);

impl Bytes {
    /// Gibibytes (2^30 bytes).
    #[must_use]
    pub const fn gib(v: f64) -> Self {
        Self(v * 1_073_741_824.0)
    }
    /// Decimal megabytes (10^6 bytes).
    #[must_use]
    pub const fn mb(v: f64) -> Self {
        Self(v * 1e6)
    }
    /// The value in gibibytes.
    #[must_use]
    pub fn as_gib(self) -> f64 {
        self.0 / 1_073_741_824.0
    }
}

impl Seconds {
    /// Microseconds.
    #[must_use]
    pub const fn us(v: f64) -> Self {
        Self(v * 1e-6)
    }
    /// The value in milliseconds.
    #[must_use]
    pub fn as_ms(self) -> f64 {
        self.0 * 1e3
    }
}

impl Bandwidth {
    /// Decimal gigabytes per second (10^9 B/s), as datasheets quote them.
    #[must_use]
    pub const fn gb_s(v: f64) -> Self {
        Self(v * 1e9)
    }
    /// Gigabits per second, as network line rates are quoted.
    #[must_use]
    pub const fn gbit_s(v: f64) -> Self {
        Self(v * 1e9 / 8.0)
    }
    /// The value in decimal GB/s.
    #[must_use]
    pub fn as_gb_s(self) -> f64 {
        self.0 / 1e9
    }
}

impl FlopRate {
    /// TeraFLOP per second (10^12).
    #[must_use]
    pub const fn tflops(v: f64) -> Self {
        Self(v * 1e12)
    }
    /// The value in TFLOP/s.
    #[must_use]
    pub fn as_tflops(self) -> f64 {
        self.0 / 1e12
    }
}

impl Div<Bandwidth> for Bytes {
    type Output = Seconds;
    fn div(self, rhs: Bandwidth) -> Seconds {
        Seconds(self.0 / rhs.0)
    }
}

impl Div<FlopRate> for Flop {
    type Output = Seconds;
    fn div(self, rhs: FlopRate) -> Seconds {
        Seconds(self.0 / rhs.0)
    }
}

impl Div<Seconds> for Bytes {
    type Output = Bandwidth;
    fn div(self, rhs: Seconds) -> Bandwidth {
        Bandwidth(self.0 / rhs.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_over_bandwidth_is_seconds() {
        let t = Bytes::mb(900.0) / Bandwidth::gb_s(450.0);
        assert!((t.0 - 0.002).abs() < 1e-12);
    }

    #[test]
    fn line_rate_in_bits() {
        assert_eq!(Bandwidth::gbit_s(400.0).as_gb_s(), 50.0);
    }
}
