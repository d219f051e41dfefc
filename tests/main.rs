mod eval_conncomp;
mod eval_golden;
fn main(){}
