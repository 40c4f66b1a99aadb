package layout

// tengineTitle spells generated roles as Tengine tmfile names them, so the
// generated boxes are as wide as those of a real model.
func tengineTitle(r Role) string {
	return [NumRoles]string{
		RoleInput: "InputOp", RoleConv: "Convolution", RoleNorm: "BatchNormalization", RoleActivation: "ReLu",
		RolePool: "Pooling", RoleAdd: "Eltwise", RoleConcat: "Concat", RoleDense: "FullyConnected", RoleSoftmax: "Softmax",
	}[r]
}
