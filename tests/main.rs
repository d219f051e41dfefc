fn main(){}
mod model_config;
mod model_forward;
mod model_gradients;
mod model_util;
mod model_train;
