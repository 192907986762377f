package fr.labri.hpccloud.starpu.data;

import java.io.Serializable;
import java.util.Objects;

/** A pair (Spark's and StarPU's {@code Tuple2}). */
public final class Tuple2<U, V> implements Serializable {
	private static final long serialVersionUID = 1L;
	private final U u;
	private final V v;

	public Tuple2(U u, V v) {
		this.u = u;
		this.v = v;
	}

	public U _1() {
		return u;
	}

	public V _2() {
		return v;
	}

	@Override
	public boolean equals(Object obj) {
		if (!(obj instanceof Tuple2)) {
			return false;
		}
		Tuple2<?, ?> o = (Tuple2<?, ?>) obj;
		return Objects.equals(u, o.u) && Objects.equals(v, o.v);
	}

	@Override
	public int hashCode() {
		return Objects.hash(u, v);
	}

	@Override
	public String toString() {
		return u + " " + v;
	}
}
