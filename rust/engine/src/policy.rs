//! A trained policy evaluated natively: a small dense network (a multilayer perceptron) from
//! a seat's observation tensor to one logit per action, the network of Regalia's policy
//! files (`regalia.policy_file`), played as the Python `policy` agent plays it: the legal
//! action of highest logit (the lowest id among equal ones), or one drawn in proportion to
//! the softmax of the legal actions' logits.
//!
//! The weights are read once into the engine; a forward pass writes only into a caller's
//! scratch buffer ([`PolicyNet::scratch_len`]), so choosing allocates nothing.

use crate::actions::{Action, ActionSet};
use crate::error::{Error, Result};

/// The function between two layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `tanh(x)`.
    Tanh,
    /// `max(x, 0)`.
    Relu,
}

impl Activation {
    /// Every activation, in the order of their names.
    pub const ALL: [Activation; 2] = [Activation::Tanh, Activation::Relu];

    /// The activation's name, as policy files write it.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Tanh => "tanh",
            Activation::Relu => "relu",
        }
    }

    /// The activation called `name`, if any.
    pub fn from_name(name: &str) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.name() == name)
    }

    fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Tanh => x.tanh(),
            Activation::Relu => x.max(0.0),
        }
    }
}

/// One dense layer: `outputs` rows of `inputs` weights (row-major, as `weight[out, in]`)
/// and a bias per output.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    /// `outputs * inputs` weights, row by row.
    pub weight: Vec<f32>,
    /// One bias per output.
    pub bias: Vec<f32>,
    /// Inputs of the layer (the width of a row of `weight`).
    pub inputs: usize,
}

impl Layer {
    fn outputs(&self) -> usize {
        self.bias.len()
    }

    /// `out = weight · input + bias`.
    fn forward(&self, input: &[f32], out: &mut [f32]) {
        let rows = self.weight.chunks_exact(self.inputs.max(1));
        for ((o, row), b) in out.iter_mut().zip(rows).zip(&self.bias) {
            *o = b + dot(row, input);
        }
    }
}

/// Lanes of [`dot`]'s partial sums.
const LANES: usize = 8;

/// `Σ a[i] * b[i]`, summed in [`LANES`] independent partial sums so that the compiler can
/// use vector instructions (a different order from a plain loop's, so the last bits may
/// differ from it).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut lanes = [0.0f32; LANES];
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_chunks
        .remainder()
        .iter()
        .zip(b_chunks.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in a_chunks.zip(b_chunks) {
        for ((lane, x), y) in lanes.iter_mut().zip(x).zip(y) {
            *lane += x * y;
        }
    }
    lanes.iter().sum::<f32>() + tail
}

/// A trained policy: its layers and the activation between them.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyNet {
    layers: Vec<Layer>,
    activation: Activation,
}

impl PolicyNet {
    /// The network of `layers` (each layer's inputs the previous layer's outputs), or an
    /// error naming the layer whose shape does not fit or whose numbers are not finite.
    pub fn new(layers: Vec<Layer>, activation: Activation) -> Result<Self> {
        let Some(first) = layers.first() else {
            return Err(Error::InvalidArgument(
                "a policy network needs at least one layer".into(),
            ));
        };
        let mut width = first.inputs;
        for (k, layer) in layers.iter().enumerate() {
            let outputs = layer.outputs();
            if layer.inputs != width || width == 0 || outputs == 0 {
                return Err(Error::InvalidArgument(format!(
                    "layer {k} of the policy network takes {} inputs to {outputs} outputs; the layer before gives {width}",
                    layer.inputs
                )));
            }
            if layer.weight.len() != outputs * layer.inputs {
                return Err(Error::InvalidArgument(format!(
                    "layer {k} of the policy network has {} weights, not {outputs} x {}",
                    layer.weight.len(),
                    layer.inputs
                )));
            }
            if !layer
                .weight
                .iter()
                .chain(&layer.bias)
                .all(|x| x.is_finite())
            {
                return Err(Error::InvalidArgument(format!(
                    "layer {k} of the policy network has a weight or bias that is not a finite number"
                )));
            }
            width = outputs;
        }
        Ok(PolicyNet { layers, activation })
    }

    /// Floats of one observation (the first layer's inputs).
    pub fn inputs(&self) -> usize {
        self.layers.first().map_or(0, |l| l.inputs)
    }

    /// Logits of one pass (the last layer's outputs): the size of the action space.
    pub fn outputs(&self) -> usize {
        self.layers.last().map_or(0, Layer::outputs)
    }

    /// The activation between layers.
    pub fn activation(&self) -> Activation {
        self.activation
    }

    /// Floats of scratch one forward pass needs: two buffers as wide as the widest layer.
    pub fn scratch_len(&self) -> usize {
        2 * self.layers.iter().map(Layer::outputs).max().unwrap_or(0)
    }

    /// The logits of `input` (an observation of [`PolicyNet::inputs`] floats), written into
    /// `scratch` (at least [`PolicyNet::scratch_len`] floats; a shorter one gives an empty
    /// slice). Sums run in the order of the weights, so they may differ from another
    /// implementation's in the last bits.
    pub fn logits<'a>(&self, input: &[f32], scratch: &'a mut [f32]) -> &'a [f32] {
        let half = scratch.len() / 2;
        if input.len() != self.inputs() || half * 2 < self.scratch_len() {
            return &[];
        }
        let (mut a, mut b) = scratch.split_at_mut(half);
        let mut width = 0;
        for (k, layer) in self.layers.iter().enumerate() {
            let out = &mut b[..layer.outputs()];
            if k == 0 {
                layer.forward(input, out);
            } else {
                layer.forward(&a[..width], out);
            }
            if k + 1 < self.layers.len() {
                out.iter_mut().for_each(|x| *x = self.activation.apply(*x));
            }
            width = layer.outputs();
            std::mem::swap(&mut a, &mut b);
        }
        &a[..width]
    }

    /// The policy's choice among `legal` (`None` when nothing is legal or `input` has the
    /// wrong size): greedy without `draw`, the legal action of highest logit (the lowest id
    /// among equal ones); with `draw` (a uniform number in `[0, 1)`) the first legal action
    /// whose cumulative softmax probability exceeds it (the last legal one if rounding
    /// leaves the draw above them all), as the Python agent samples.
    pub fn choose(
        &self,
        input: &[f32],
        legal: &ActionSet,
        draw: Option<f64>,
        scratch: &mut [f32],
    ) -> Option<Action> {
        let logits = self.logits(input, scratch);
        let mut legal_logits = legal
            .iter()
            .filter_map(|a| Some((a, *logits.get(a as usize)?)));
        let (best, top) = legal_logits.next()?;
        let (best, top) =
            legal_logits.fold(
                (best, top),
                |(best, top), (a, x)| {
                    if x > top {
                        (a, x)
                    } else {
                        (best, top)
                    }
                },
            );
        let Some(draw) = draw else {
            return Some(best);
        };
        let total: f64 = softmax_weights(logits, legal, top).map(|(_, w)| w).sum();
        let mut cumulative = 0.0;
        let mut last = best;
        for (a, w) in softmax_weights(logits, legal, top) {
            cumulative += w / total;
            if cumulative > draw {
                return Some(a);
            }
            last = a;
        }
        Some(last)
    }

    /// The probability the policy gives each legal action when it samples (0 elsewhere),
    /// written into `out` (one float per action); `false` when nothing is legal or a size
    /// does not fit.
    pub fn probabilities(
        &self,
        input: &[f32],
        legal: &ActionSet,
        scratch: &mut [f32],
        out: &mut [f64],
    ) -> bool {
        let logits = self.logits(input, scratch);
        let top = legal
            .iter()
            .filter_map(|a| logits.get(a as usize).copied())
            .reduce(f32::max);
        let Some(top) = top else {
            return false;
        };
        if out.len() != logits.len() {
            return false;
        }
        out.fill(0.0);
        let total: f64 = softmax_weights(logits, legal, top).map(|(_, w)| w).sum();
        for (a, w) in softmax_weights(logits, legal, top) {
            out[a as usize] = w / total;
        }
        true
    }
}

/// Each legal action with `exp(logit - top)`, ascending.
fn softmax_weights<'a>(
    logits: &'a [f32],
    legal: &'a ActionSet,
    top: f32,
) -> impl Iterator<Item = (Action, f64)> + 'a {
    legal.iter().filter_map(move |a| {
        let x = *logits.get(a as usize)?;
        Some((a, f64::from(x - top).exp()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two inputs, a hidden layer of two, three actions.
    fn small(activation: Activation) -> PolicyNet {
        let hidden = Layer {
            weight: vec![1.0, -1.0, 0.5, 2.0],
            bias: vec![0.0, -1.0],
            inputs: 2,
        };
        let out = Layer {
            weight: vec![1.0, 0.0, 0.0, 1.0, 1.0, 1.0],
            bias: vec![0.0, 0.0, -0.5],
            inputs: 2,
        };
        PolicyNet::new(vec![hidden, out], activation).expect("shapes fit")
    }

    fn legal(actions: &[Action]) -> ActionSet {
        actions.iter().copied().collect()
    }

    #[test]
    fn the_forward_pass_is_the_dense_network() {
        let net = small(Activation::Relu);
        let mut scratch = vec![0.0; net.scratch_len()];
        // hidden: relu(1*2 - 1*1 + 0) = 1, relu(0.5*2 + 2*1 - 1) = 2
        assert_eq!(net.logits(&[2.0, 1.0], &mut scratch), &[1.0, 2.0, 2.5]);
        let net = small(Activation::Tanh);
        let (h0, h1) = (1.0f32.tanh(), 2.0f32.tanh());
        let got = net.logits(&[2.0, 1.0], &mut scratch).to_vec();
        assert_eq!(got, vec![h0, h1, h0 + h1 - 0.5]);
        assert!(net.logits(&[2.0], &mut scratch).is_empty());
    }

    #[test]
    fn greedy_takes_the_legal_action_of_highest_logit_and_the_lowest_id_on_a_tie() {
        let net = small(Activation::Relu);
        let mut scratch = vec![0.0; net.scratch_len()];
        let x = [2.0, 1.0]; // logits 1, 2, 2.5
        assert_eq!(
            net.choose(&x, &legal(&[0, 1, 2]), None, &mut scratch),
            Some(2)
        );
        assert_eq!(net.choose(&x, &legal(&[0, 1]), None, &mut scratch), Some(1));
        assert_eq!(net.choose(&x, &legal(&[]), None, &mut scratch), None);
        // relu(1 - 1) = 0 and relu(0.5 + 2 - 1) = 1.5: logits 0, 1.5 and 1.0
        let tie = small(Activation::Relu);
        let y = [1.0, 1.0];
        let logits = tie.logits(&y, &mut scratch).to_vec();
        assert_eq!(logits, vec![0.0, 1.5, 1.0]);
        let flat = PolicyNet::new(
            vec![Layer {
                weight: vec![0.0; 6],
                bias: vec![1.0, 3.0, 3.0],
                inputs: 2,
            }],
            Activation::Tanh,
        )
        .expect("one layer");
        assert_eq!(
            flat.choose(&y, &legal(&[0, 1, 2]), None, &mut scratch),
            Some(1)
        );
        assert_eq!(
            flat.choose(&y, &legal(&[0, 2]), None, &mut scratch),
            Some(2)
        );
    }

    #[test]
    fn sampling_follows_the_cumulative_softmax_of_the_legal_actions() {
        let net = small(Activation::Relu);
        let mut scratch = vec![0.0; net.scratch_len()];
        let x = [2.0, 1.0]; // logits 1, 2, 2.5
        let mut p = vec![0.0; 3];
        assert!(net.probabilities(&x, &legal(&[0, 2]), &mut scratch, &mut p));
        let e = (-1.5f64).exp();
        assert!((p[0] - e / (1.0 + e)).abs() < 1e-12 && p[1] == 0.0);
        assert!((p[2] - 1.0 / (1.0 + e)).abs() < 1e-12);
        let choose =
            |draw: f64, scratch: &mut [f32]| net.choose(&x, &legal(&[0, 2]), Some(draw), scratch);
        assert_eq!(choose(0.0, &mut scratch), Some(0));
        assert_eq!(choose(p[0] - 1e-9, &mut scratch), Some(0));
        assert_eq!(choose(p[0] + 1e-9, &mut scratch), Some(2));
        assert_eq!(choose(0.999_999_999, &mut scratch), Some(2));
        assert_eq!(choose(1.5, &mut scratch), Some(2));
    }

    #[test]
    fn shapes_that_do_not_fit_and_bad_numbers_are_refused() {
        let layer = |outputs: usize, inputs: usize| Layer {
            weight: vec![0.5; outputs * inputs],
            bias: vec![0.0; outputs],
            inputs,
        };
        assert!(PolicyNet::new(vec![], Activation::Tanh).is_err());
        let e = PolicyNet::new(vec![layer(4, 3), layer(2, 5)], Activation::Tanh)
            .expect_err("4 outputs into 5 inputs");
        assert!(e.to_string().contains("layer 1"), "{e}");
        let mut short = layer(2, 3);
        short.weight.pop();
        assert!(PolicyNet::new(vec![short], Activation::Relu).is_err());
        let mut nan = layer(2, 3);
        nan.bias[1] = f32::NAN;
        assert!(PolicyNet::new(vec![nan], Activation::Relu).is_err());
        assert!(PolicyNet::new(vec![layer(0, 3)], Activation::Relu).is_err());
        let net = PolicyNet::new(vec![layer(4, 3), layer(2, 4)], Activation::Relu).expect("fits");
        assert_eq!((net.inputs(), net.outputs(), net.scratch_len()), (3, 2, 8));
        assert_eq!(Activation::from_name("relu"), Some(Activation::Relu));
        assert_eq!(Activation::from_name("gelu"), None);
    }
}
