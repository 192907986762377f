package fr.labri.hpccloud.starpu.data;

import fr.labri.hpccloud.starpu.internal.Native;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A way to cut a handle, planned by {@link DataHandle#partitionPlan} (StarPU's asynchronous
 * partitioning): its children exist from the start; the switches between the whole data and
 * its children are submitted like tasks, in order with them. A task naming a child whose
 * plan is not active switches to it by itself. Which view is active is the runtime's state.
 */
public final class PartitionPlan {
	private final DataHandle parent;
	private final long[] children;

	PartitionPlan(DataHandle parent, long[] children) {
		this.parent = parent;
		this.children = children;
	}

	public DataHandle getParent() {
		return parent;
	}

	public int getNbChildren() {
		return children.length;
	}

	/** Child {@code index}, a handle of its parent's type. */
	public DataHandle getChild(int index) {
		if (index < 0 || index >= children.length) {
			throw new IndexOutOfBoundsException("the plan has no child " + index + " (it has " + children.length + ")");
		}
		return parent.newChild(children[index]);
	}

	/** The children, in order. */
	public List<DataHandle> getChildren() {
		List<DataHandle> l = new ArrayList<>(children.length);
		for (int i = 0; i < children.length; i++) {
			l.add(getChild(i));
		}
		return Collections.unmodifiableList(l);
	}

	/** Switches to the children, for reading and writing ({@code starpu_data_partition_submit}). */
	public void partitionSubmit() {
		change(Native.PLAN_PARTITION);
	}

	/** Switches to the children for reading, the whole data staying readable too. */
	public void partitionReadonlySubmit() {
		change(Native.PLAN_PARTITION_READONLY);
	}

	/** Makes a read-only partitioning writable. */
	public void partitionReadwriteUpgradeSubmit() {
		change(Native.PLAN_READWRITE_UPGRADE);
	}

	/** Makes a writable partitioning read-only. */
	public void partitionReadonlyDowngradeSubmit() {
		change(Native.PLAN_READONLY_DOWNGRADE);
	}

	/** Gathers the children back into the whole data ({@code starpu_data_unpartition_submit}). */
	public void unpartitionSubmit() {
		change(Native.PLAN_UNPARTITION);
	}

	/** Gathers the children into the whole data for reading, the children staying readable. */
	public void unpartitionReadonlySubmit() {
		change(Native.PLAN_UNPARTITION_READONLY);
	}

	/** Forgets the plan (gathering it first if it is active); its children go with it. */
	public void clean() {
		change(Native.PLAN_CLEAN);
	}

	private void change(int how) {
		Native.planSwitch(parent.checked(), children, how);
	}
}
