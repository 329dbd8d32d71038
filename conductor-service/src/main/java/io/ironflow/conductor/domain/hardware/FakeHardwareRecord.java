package io.ironflow.conductor.domain.hardware;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one node's simulated hardware holds and has done. The engine stores it as JSON in the node's
 * {@code driver_internal_info} under {@link #KEY}; tests and operators read it to see what really happened.
 * Insertion-ordered collections keep the stored JSON stable. Each history keeps its last {@link #HISTORY}
 * entries: the record travels in every snapshot of the node, and a node cleaned thousands of times must not outgrow
 * what a snapshot may hold.
 */
public final class FakeHardwareRecord {

    public static final String KEY = "fake_hardware";
    /** How many entries each history keeps, the newest last. */
    public static final int HISTORY = 100;

    private String powerState;
    private final List<String> powerHistory = new ArrayList<>();
    private int erasedDevices;
    private final List<String> eraseHistory = new ArrayList<>();
    private final List<String> disks = new ArrayList<>();
    private final Map<String, Object> diskErasures = new LinkedHashMap<>();
    private final Map<String, Object> diskMetadataWipes = new LinkedHashMap<>();
    private final Map<String, Object> biosSettings = new LinkedHashMap<>();
    private Map<String, Object> raidConfig;
    private final List<String> firmwareImages = new ArrayList<>();
    private String deployedImage;
    private final List<String> deployedImages = new ArrayList<>();
    private int tearDowns;
    private boolean inspected;
    /** What the last inspection found (ironic-python-agent's format), and the inspector's plugin data; null before. */
    private Map<String, Object> inventory;
    private Map<String, Object> pluginData;
    private boolean rescued;
    private final List<String> stepHistory = new ArrayList<>();

    /** A fresh record when {@code json} is null (a node the driver has never touched). */
    public static FakeHardwareRecord fromJson(Map<String, Object> json) {
        FakeHardwareRecord r = new FakeHardwareRecord();
        if (json == null) {
            return r;
        }
        r.powerState = (String) json.get("power_state");
        r.powerHistory.addAll(strings(json.get("power_history")));
        r.erasedDevices = json.get("erased_devices") instanceof Number n ? n.intValue() : 0;
        r.eraseHistory.addAll(strings(json.get("erase_history")));
        r.disks.addAll(strings(json.get("disks")));
        r.diskErasures.putAll(map(json.get("disk_erasures")));
        r.diskMetadataWipes.putAll(map(json.get("disk_metadata_wipes")));
        r.biosSettings.putAll(map(json.get("bios_settings")));
        r.raidConfig = json.get("raid_config") == null ? null : new LinkedHashMap<>(map(json.get("raid_config")));
        r.firmwareImages.addAll(strings(json.get("firmware_images")));
        r.deployedImage = (String) json.get("deployed_image");
        r.deployedImages.addAll(strings(json.get("deployed_images")));
        r.tearDowns = json.get("tear_downs") instanceof Number n ? n.intValue() : 0;
        r.inspected = Boolean.TRUE.equals(json.get("inspected"));
        r.inventory = json.get("inventory") == null ? null : new LinkedHashMap<>(map(json.get("inventory")));
        r.pluginData = json.get("plugin_data") == null ? null : new LinkedHashMap<>(map(json.get("plugin_data")));
        r.rescued = Boolean.TRUE.equals(json.get("rescued"));
        r.stepHistory.addAll(strings(json.get("step_history")));
        return r;
    }

    /** Reads the record out of a node's driver_internal_info (null-safe). */
    @SuppressWarnings("unchecked")
    public static FakeHardwareRecord fromDriverInternalInfo(Map<String, Object> driverInternalInfo) {
        Object json = driverInternalInfo == null ? null : driverInternalInfo.get(KEY);
        return fromJson(json instanceof Map<?, ?> m ? (Map<String, Object>) m : null);
    }

    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("power_state", powerState);
        json.put("power_history", new ArrayList<>(powerHistory));
        json.put("erased_devices", erasedDevices);
        json.put("erase_history", new ArrayList<>(eraseHistory));
        json.put("disks", new ArrayList<>(disks));
        json.put("disk_erasures", new LinkedHashMap<>(diskErasures));
        json.put("disk_metadata_wipes", new LinkedHashMap<>(diskMetadataWipes));
        json.put("bios_settings", new LinkedHashMap<>(biosSettings));
        json.put("raid_config", raidConfig == null ? null : new LinkedHashMap<>(raidConfig));
        json.put("firmware_images", new ArrayList<>(firmwareImages));
        json.put("deployed_image", deployedImage);
        json.put("deployed_images", new ArrayList<>(deployedImages));
        json.put("tear_downs", tearDowns);
        json.put("inspected", inspected);
        json.put("inventory", inventory == null ? null : new LinkedHashMap<>(inventory));
        json.put("plugin_data", pluginData == null ? null : new LinkedHashMap<>(pluginData));
        json.put("rescued", rescued);
        json.put("step_history", new ArrayList<>(stepHistory));
        return json;
    }

    // --- what the driver does to the hardware (package-private: only drivers change it) ---

    void power(String target, String endState) {
        remember(powerHistory, target);
        powerState = endState;
    }

    /** An erase step ran: {@code how} on {@code erased}, out of the node's {@code allDisks}. */
    void erased(String how, boolean wholeDisks, List<String> allDisks, List<String> erased) {
        remember(eraseHistory, how);
        if (wholeDisks) {
            erasedDevices++;
        }
        disks.clear();
        disks.addAll(allDisks);
        Map<String, Object> counts = wholeDisks ? diskErasures : diskMetadataWipes;
        for (String disk : erased) {
            counts.put(disk, (counts.get(disk) instanceof Number n ? n.intValue() : 0) + 1);
        }
    }

    void biosSet(String name, Object value) {
        biosSettings.put(name, value);
    }

    void biosReset() {
        biosSettings.clear();
    }

    void raid(Map<String, Object> config) {
        raidConfig = config == null ? null : new LinkedHashMap<>(config);
    }

    void firmwareApplied(String image) {
        remember(firmwareImages, image);
    }

    void deployed(String image) {
        deployedImage = image;
        remember(deployedImages, image);
    }

    void tornDown() {
        deployedImage = null;
        tearDowns++;
    }

    void inspected(Map<String, Object> foundInventory, Map<String, Object> foundPluginData) {
        inspected = true;
        inventory = new LinkedHashMap<>(foundInventory);
        pluginData = new LinkedHashMap<>(foundPluginData);
    }

    void rescued(boolean value) {
        rescued = value;
    }

    void ran(String stepKey) {
        remember(stepHistory, stepKey);
    }

    private static void remember(List<String> history, String entry) {
        history.add(entry);
        if (history.size() > HISTORY) {
            history.subList(0, history.size() - HISTORY).clear();
        }
    }

    // --- readable accessors ---

    /** {@code power on}, {@code power off}, or null before the driver first set power. */
    public String powerState() {
        return powerState;
    }

    /** Every power target set, in order ({@code power on}, {@code power off}, {@code rebooting}). */
    public List<String> powerHistory() {
        return List.copyOf(powerHistory);
    }

    /** How many times the disks were fully erased ({@code erase_devices}); metadata wipes do not count. */
    public int erasedDevices() {
        return erasedDevices;
    }

    /** Every erase, in order: {@code erase_devices} or {@code erase_devices_metadata}. */
    public List<String> eraseHistory() {
        return List.copyOf(eraseHistory);
    }

    /** The node's disks as the last erase saw them (empty before any erase). */
    public List<String> disks() {
        return List.copyOf(disks);
    }

    /** How many times each disk was fully erased ({@code erase_devices}); a disk never erased is absent. */
    public Map<String, Integer> diskErasures() {
        return counts(diskErasures);
    }

    /** How many times each disk's metadata was wiped ({@code erase_devices_metadata}). */
    public Map<String, Integer> diskMetadataWipes() {
        return counts(diskMetadataWipes);
    }

    private static Map<String, Integer> counts(Map<String, Object> raw) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        raw.forEach((disk, n) -> counts.put(disk, n instanceof Number number ? number.intValue() : 0));
        return counts;
    }

    public Map<String, Object> biosSettings() {
        return new LinkedHashMap<>(biosSettings);
    }

    /** The RAID configuration created, or null when there is none. */
    public Map<String, Object> raidConfig() {
        return raidConfig == null ? null : new LinkedHashMap<>(raidConfig);
    }

    public List<String> firmwareImages() {
        return List.copyOf(firmwareImages);
    }

    /** The image on the disk now, or null (never deployed, or torn down). */
    public String deployedImage() {
        return deployedImage;
    }

    public List<String> deployedImages() {
        return List.copyOf(deployedImages);
    }

    public int tearDowns() {
        return tearDowns;
    }

    public boolean inspected() {
        return inspected;
    }

    /** The inventory the last inspection recorded, or null when the node was never inspected. */
    public Map<String, Object> inventory() {
        return inventory == null ? null : new LinkedHashMap<>(inventory);
    }

    /** The plugin data the last inspection recorded, or null when the node was never inspected. */
    public Map<String, Object> pluginData() {
        return pluginData == null ? null : new LinkedHashMap<>(pluginData);
    }

    public boolean rescued() {
        return rescued;
    }

    /** Keys of every step that completed, in order. */
    public List<String> stepHistory() {
        return List.copyOf(stepHistory);
    }

    private static List<String> strings(Object value) {
        return value instanceof List<?> l ? l.stream().map(String::valueOf).toList() : List.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
