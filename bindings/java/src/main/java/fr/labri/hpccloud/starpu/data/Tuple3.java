package fr.labri.hpccloud.starpu.data;

import java.io.Serializable;
import java.util.Objects;

/** A triple; {@link #toKeyPairs} gives {@code (k, (u, v))}. */
public final class Tuple3<K, U, V> implements Serializable {
	private static final long serialVersionUID = 1L;
	private final K k;
	private final U u;
	private final V v;

	public Tuple3(K k, U u, V v) {
		this.k = k;
		this.u = u;
		this.v = v;
	}

	public K _1() {
		return k;
	}

	public U _2() {
		return u;
	}

	public V _3() {
		return v;
	}

	public Tuple2<K, Tuple2<U, V>> toKeyPairs() {
		return new Tuple2<>(k, new Tuple2<>(u, v));
	}

	@Override
	public boolean equals(Object obj) {
		if (!(obj instanceof Tuple3)) {
			return false;
		}
		Tuple3<?, ?, ?> o = (Tuple3<?, ?, ?>) obj;
		return Objects.equals(k, o.k) && Objects.equals(u, o.u) && Objects.equals(v, o.v);
	}

	@Override
	public int hashCode() {
		return Objects.hash(k, u, v);
	}

	@Override
	public String toString() {
		return k + " " + u + " " + v;
	}
}
